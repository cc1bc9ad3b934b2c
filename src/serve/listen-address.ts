// `--listen`: where `pith serve` accepts connections. `ws://HOST:PORT` is a TCP listener (port 0
// picks a free one); `unix:/path` is a Unix domain socket, reachable only through the file system.
import { isIP } from "node:net";
import { PithError } from "../shared/errors.js";

export type ListenAddress = { kind: "tcp"; host: string; port: number } | { kind: "unix"; path: string };

export function parseListenAddress(value: string): ListenAddress {
  if (value.startsWith("unix:")) {
    const path = value.slice("unix:".length);
    if (!path) throw new PithError("invalid_request", `Invalid --listen "${value}": unix: needs a socket path (unix:/run/pith.sock)`);
    return { kind: "unix", path };
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new PithError("invalid_request", `Invalid --listen "${value}" (expected ws://HOST:PORT or unix:/path/to/socket)`);
  }
  if (url.protocol !== "ws:") throw new PithError("invalid_request", `Invalid --listen "${value}": only ws:// and unix: are served (put TLS in front with a proxy)`);
  if (url.pathname !== "/" || url.search || url.username) throw new PithError("invalid_request", `Invalid --listen "${value}": give only ws://HOST:PORT`);
  if (url.port === "") throw new PithError("invalid_request", `Invalid --listen "${value}": the port is required (0 picks a free one)`);
  const host = url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname;
  return { kind: "tcp", host, port: Number(url.port) };
}

/**
 * A listener only this machine can reach: a Unix socket, localhost or a loopback address. Any
 * other address needs a configured token (or `--insecure-no-auth`).
 */
export function isLoopback(address: ListenAddress): boolean {
  if (address.kind === "unix") return true;
  const host = address.host.toLowerCase();
  if (host === "localhost") return true;
  if (isIP(host) === 4) return host.startsWith("127.");
  return host === "::1";
}

/**
 * The URL a client connects to, ending in the request path `/` (a wildcard host is shown as the
 * loopback address; a Unix socket as `ws+unix:<socket>:/`, the form the `ws` client reads).
 */
export function connectUrl(address: ListenAddress, port: number): string {
  if (address.kind === "unix") return `ws+unix:${address.path}:/`;
  const host = address.host === "0.0.0.0" || address.host === "" ? "127.0.0.1" : address.host === "::" ? "[::1]" : address.host.includes(":") ? `[${address.host}]` : address.host;
  return `ws://${host}:${port}/`;
}
