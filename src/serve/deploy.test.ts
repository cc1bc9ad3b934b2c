// deploy/: the Kubernetes manifests parse and say what docs/serve.md promises (probes on /readyz
// and /healthz, the token from a Secret as a file, a drain shorter than the grace period); the
// Dockerfile runs pith serve as a non-root user with bubblewrap installed.
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { parseAllDocuments } from "yaml";

const DEPLOY = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../deploy");
const load = (name: string) => parseAllDocuments(readFileSync(path.join(DEPLOY, "k8s", name), "utf8")).map((d) => {
  expect(d.errors).toEqual([]);
  return d.toJS();
});

describe("deploy/", () => {
  it("the Deployment probes /readyz and /healthz, mounts the token Secret, and drains within its grace period", () => {
    const [deployment] = load("deployment.yaml");
    expect(deployment.kind).toBe("Deployment");
    const pod = deployment.spec.template.spec;
    const [c] = pod.containers;
    expect(c.readinessProbe.httpGet.path).toBe("/readyz");
    expect(c.livenessProbe.httpGet.path).toBe("/healthz");
    const tokenFile = c.args[c.args.indexOf("--ws-token-file") + 1];
    const mount = c.volumeMounts.find((m: any) => tokenFile.startsWith(m.mountPath + "/"));
    const volume = pod.volumes.find((v: any) => v.name === mount.name);
    expect(volume.secret.secretName).toBe("pith-serve-token");
    expect(path.join(mount.mountPath, volume.secret.items[0].path)).toBe(tokenFile);
    const drain = Number(c.args[c.args.indexOf("--drain-timeout") + 1]);
    expect(pod.terminationGracePeriodSeconds).toBeGreaterThan(drain);
    expect(c.args[c.args.indexOf("--listen") + 1]).toMatch(/^ws:\/\/0\.0\.0\.0:\d+$/);
    expect(pod.securityContext.runAsNonRoot).toBe(true);
  });

  it("the Service and the Secret match the Deployment", () => {
    const [deployment] = load("deployment.yaml");
    const [service] = load("service.yaml");
    const [secret] = load("secret.yaml");
    expect(service.kind).toBe("Service");
    expect(service.spec.selector).toEqual(deployment.spec.template.metadata.labels);
    expect(service.spec.ports[0].targetPort).toBe(deployment.spec.template.spec.containers[0].ports[0].name);
    expect(secret.kind).toBe("Secret");
    expect(Object.keys(secret.stringData)).toEqual(["token"]);
  });

  it("the Dockerfile installs bubblewrap, runs as a non-root user and starts pith serve", () => {
    const text = readFileSync(path.join(DEPLOY, "Dockerfile"), "utf8");
    expect(text).toMatch(/apt-get install[^\n]*bubblewrap/);
    const users = [...text.matchAll(/^USER (\S+)/gm)].map((m) => m[1]);
    expect(users.at(-1)).not.toMatch(/^(root|0)$/);
    expect(text).toMatch(/ENTRYPOINT \[[^\]]*"serve"\]/);
  });
});
