// What a name on the wire may be: a lock name, a client name, an OpenSession request id.
// Both the node (before proposing, and again at apply) and the codec check names by these
// rules; each check returns a message for the client, or null when the name is fine.

/** Lock names are at most this many bytes of UTF-8. */
export const MAX_LOCK_NAME_BYTES = 256;
export const MAX_CLIENT_NAME_BYTES = 256;
export const MAX_REQUEST_ID_BYTES = 128;

/** UTF-8 byte length, or -1 if the string holds a lone surrogate (it has no UTF-8 form). */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (!(next >= 0xdc00 && next <= 0xdfff)) return -1;
      bytes += 4;
      i++;
    } else if (c >= 0xdc00 && c <= 0xdfff) return -1;
    else bytes += 3;
  }
  return bytes;
}

/** C0 controls, DEL and C1 controls. */
function controlCharAt(text: string): number {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c <= 0x1f || (c >= 0x7f && c <= 0x9f)) return i;
  }
  return -1;
}

export function checkLockName(name: string): string | null {
  if (typeof name !== "string") return "lock name must be a string";
  const length = utf8Length(name);
  if (length < 0) return "lock name is not valid UTF-8";
  if (length === 0) return "lock name is empty";
  if (length > MAX_LOCK_NAME_BYTES)
    return `lock name is ${length} bytes, more than ${MAX_LOCK_NAME_BYTES}`;
  const at = controlCharAt(name);
  if (at >= 0) return `lock name has a control character at position ${at}`;
  return null;
}

export function checkRequestId(requestId: string): string | null {
  const length = typeof requestId === "string" ? utf8Length(requestId) : -1;
  if (length < 1 || length > MAX_REQUEST_ID_BYTES)
    return `request id must be 1..${MAX_REQUEST_ID_BYTES} bytes of UTF-8`;
  return null;
}

export function checkClientName(clientName: string): string | null {
  const length = typeof clientName === "string" ? utf8Length(clientName) : -1;
  if (length < 0 || length > MAX_CLIENT_NAME_BYTES)
    return `client name must be at most ${MAX_CLIENT_NAME_BYTES} bytes of UTF-8`;
  if (controlCharAt(clientName) >= 0) return "client name has a control character";
  return null;
}
