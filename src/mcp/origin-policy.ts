/**
 * Which browser origins may call /mcp (MCP spec, Streamable HTTP: servers must check Origin
 * against DNS rebinding and answer 403 to a present, unallowed one). Clients outside a
 * browser send no Origin and pass.
 *
 * Allowed: SCOUT_PUBLIC_URL's origin, SCOUT_MCP_ALLOWED_ORIGINS, and the Host header's own
 * origin only when that host is a loopback name or address. "Same origin as Host" in general
 * would defeat the check: a rebinding page at http://evil.example:8080 whose name now points
 * at Scout sends Origin and Host both evil.example:8080. Such a page cannot send Host:
 * localhost or 127.0.0.1, so those stay allowed for a page Scout's own host serves locally.
 */
export type OriginPolicy = (origin: string | undefined, host: string | undefined) => boolean;

const LOOPBACK_HOST = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])(?::\d+)?$/i;

const originOf = (url: string): string | undefined => {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
};

export function createOriginPolicy(o: {
  publicUrl: string | undefined;
  allowedOrigins: readonly string[];
}): OriginPolicy {
  const allowed = new Set(o.allowedOrigins);
  const own = o.publicUrl === undefined ? undefined : originOf(o.publicUrl);
  if (own !== undefined) allowed.add(own);
  return (origin, host) => {
    if (origin === undefined) return true;
    const normal = originOf(origin);
    if (normal === undefined) return false;
    if (allowed.has(normal)) return true;
    if (host === undefined || !LOOPBACK_HOST.test(host)) return false;
    return normal === originOf(`http://${host}`) || normal === originOf(`https://${host}`);
  };
}
