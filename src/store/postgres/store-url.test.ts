// The session store URL is checked without ever being quoted, and whatever the driver or the
// network says about it leaves pith with the URL and every password form scrubbed.
import { describe, expect, it } from "vitest";
import { redact, secretForms } from "./redact.js";
import { DEFAULT_RECONNECT_MS, driverEnv, isDatabaseUrl, parseStoreUrl } from "./store-url.js";

describe("the session store URL", () => {
  it("takes postgres:// and postgresql:// URLs, with a socket folder, a password file and a reconnect window", () => {
    expect(isDatabaseUrl("postgres://db.example/pith")).toBe(true);
    expect(isDatabaseUrl("POSTGRESQL://h/d")).toBe(true);
    expect(isDatabaseUrl("mysql://h/d")).toBe(false);
    expect(parseStoreUrl("postgres://pith@/sessions?host=/run/pg&passfile=/etc/pith/pgpass", {}).reconnectMs).toBe(DEFAULT_RECONNECT_MS);
    expect(parseStoreUrl("postgres://h/d?reconnect_timeout=2.5", {}).reconnectMs).toBe(2500);
  });

  it("refuses a bad URL without quoting it", () => {
    for (const bad of ["mysql://u:hunter2@h/d", "postgres://u:hunter2@[zz/d", "postgres://h/d?reconnect_timeout=-1&x=hunter2"]) {
      let message = "";
      try {
        parseStoreUrl(bad, {});
      } catch (err) {
        message = (err as Error).message;
      }
      expect(message).toMatch(/^Invalid session store URL/);
      expect(message).not.toContain("hunter2");
    }
  });

  it("knows every form of the password it must keep out of messages", () => {
    const { secrets } = parseStoreUrl("postgres://ann:p%40ss%3Aword@db.example:5433/pith", { PGPASSWORD: "env-secret" });
    const message = [
      "connect to postgres://ann:p%40ss%3Aword@db.example:5433/pith failed",
      "password p@ss:word rejected for ann:p%40ss%3Aword@db.example",
      "PGPASSWORD env-secret",
    ].join("\n");
    const out = redact(message, secrets);
    for (const leaked of ["p@ss:word", "p%40ss%3Aword", "env-secret", "postgres://ann"]) expect(out).not.toContain(leaked);
    expect(out).toContain("connect to *** failed");
  });

  it("scrubs any postgres URL, and secrets inside longer ones first", () => {
    expect(redact("see postgresql://x:y@h/d?sslmode=require now", [])).toBe("see postgres://*** now");
    expect(redact("abcdef and abc", ["abc", "abcdef"])).toBe("*** and ***");
    expect(secretForms("a b/c")).toEqual(expect.arrayContaining(["a b/c", "a%20b%2Fc"]));
    expect(secretForms("")).toEqual([]);
  });

  it("hands the driver only the PG* variables, HOME and the user name", () => {
    expect(driverEnv({ PGHOST: "h", PGPASSWORD: "p", HOME: "/home/a", OPENAI_API_KEY: "sk", PATH: "/bin", USER: "a" })).toEqual({ PGHOST: "h", PGPASSWORD: "p", HOME: "/home/a", USER: "a" });
  });
});
