// "host:port" addresses as written in the cluster file. IPv6 hosts are bracketed
// ("[::1]:7001") so the last colon always separates the port.

export interface HostPort {
  host: string;
  port: number;
}

const HOSTNAME =
  /^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;
const IPV6 = /^[0-9A-Fa-f:.]+$/;

/** Parses "host:port"; returns undefined when the text is not a valid address. */
export function parseHostPort(text: string): HostPort | undefined {
  const match = /^(\[[^\]]*\]|[^:[\]]+):(\d{1,5})$/.exec(text);
  if (!match) return undefined;
  const [, rawHost, rawPort] = match;
  const port = Number(rawPort);
  if (!Number.isInteger(port) || port < 1 || port > 65535) return undefined;
  if (rawHost.startsWith("[")) {
    const inner = rawHost.slice(1, -1);
    if (!inner.includes(":") || !IPV6.test(inner)) return undefined;
    return { host: inner, port };
  }
  if (!HOSTNAME.test(rawHost)) return undefined;
  return { host: rawHost, port };
}

/** Formats a host and port back into the form the cluster file and gRPC use. */
export function formatHostPort({ host, port }: HostPort): string {
  return host.includes(":") ? `[${host}]:${port}` : `${host}:${port}`;
}
