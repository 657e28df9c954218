// What a lab of network namespaces is called: its namespaces, interfaces and addresses, all
// derived from one spec, so that teardown (also of a lab whose owner died) needs nothing
// but the spec.

export interface LabSpec {
  /** Unique on the host while the lab exists; names its record in the registry. */
  name: string;
  /** Members 1..size, each a network namespace with one address. */
  size: number;
  /** Member i's namespace is `${namespacePrefix}${i}`. */
  namespacePrefix: string;
  /** Member i's host-side veth is `${vethPrefix}${i}` (at most 15 characters in all). */
  vethPrefix: string;
  /** The bridge joining the members (at most 15 characters). */
  bridge: string;
  /** First three octets of the lab's /24: member i is `${subnet}.${i}`. */
  subnet: string;
  /** Give the host `${subnet}.254` on the bridge, so processes in the root namespace reach the members. */
  hostAddress?: boolean;
}

/** The host's own address on the bridge (with `hostAddress`). */
export const HOST_OCTET = 254;

export const namespaceOf = (spec: LabSpec, member: number): string =>
  `${spec.namespacePrefix}${member}`;
export const vethOf = (spec: LabSpec, member: number): string => `${spec.vethPrefix}${member}`;
export const addressOf = (spec: LabSpec, member: number): string => `${spec.subnet}.${member}`;
export const hostAddressOf = (spec: LabSpec): string => `${spec.subnet}.${HOST_OCTET}`;
export const subnetOf = (spec: LabSpec): string => `${spec.subnet}.0/24`;
export const members = (spec: LabSpec): number[] =>
  Array.from({ length: spec.size }, (_, i) => i + 1);

/** Throws unless the spec's names fit the kernel's limits and its subnet is a private /24. */
export function checkSpec(spec: LabSpec): void {
  if (!Number.isInteger(spec.size) || spec.size < 1 || spec.size >= 254)
    throw new Error(`lab ${spec.name}: size ${spec.size} out of 1..253`);
  const longest = vethOf(spec, spec.size);
  for (const name of [longest, spec.bridge]) {
    if (name.length > 15)
      throw new Error(`lab ${spec.name}: interface name ${name} is longer than 15 characters`);
  }
  if (!/^10\.\d{1,3}\.\d{1,3}$/.test(spec.subnet))
    throw new Error(`lab ${spec.name}: subnet ${spec.subnet} is not 10.X.Y`);
  if (!/^[A-Za-z0-9_.-]+$/.test(spec.name))
    throw new Error(`lab name ${spec.name}: letters, digits, "_", "." and "-" only`);
}
