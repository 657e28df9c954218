// proto3's JSON mapping of the messages, strict where protobufjs's own fromObject is lenient
// (it takes any value for any field): what the HTTP gateway reads and writes.
//
// Reading: field names in lowerCamelCase or as in the .proto file (snake_case); an unknown
// field, a value of the wrong type, two members of one oneof, or a 64-bit integer that is
// neither a decimal string nor a number of at most 2^53 − 1 is refused with the field's path.
// A JSON number above 2^53 − 1 has already been rounded by the parser, and rounding would
// forge a token or a session id, so 64-bit values travel as decimal strings both ways.
// Writing: lowerCamelCase names, every field (defaults included), 64-bit integers as decimal
// strings, enums by name, bytes as base64.
import Long from "long";
import protobuf from "protobufjs";
import { DESCRIPTOR } from "./gen/descriptor.ts";

const root = protobuf.Root.fromJSON(DESCRIPTOR as protobuf.INamespace);
root.resolveAll();

/** A JSON value that does not map onto the message; the message names the field. */
export class JsonMappingError extends Error {}

/** Deepest nesting of messages a request may have. */
const MAX_DEPTH = 32;

const INT32_RANGE: Readonly<Record<string, readonly [number, number]>> = {
  int32: [-(2 ** 31), 2 ** 31 - 1],
  sint32: [-(2 ** 31), 2 ** 31 - 1],
  sfixed32: [-(2 ** 31), 2 ** 31 - 1],
  uint32: [0, 2 ** 32 - 1],
  fixed32: [0, 2 ** 32 - 1],
};
const UNSIGNED_64 = new Set(["uint64", "fixed64"]);
const SIGNED_64 = new Set(["int64", "sint64", "sfixed64"]);
const U64_MAX = 2n ** 64n - 1n;
const I64_MIN = -(2n ** 63n);
const I64_MAX = 2n ** 63n - 1n;
const BASE64 = /^(?:[A-Za-z0-9+/_-]{4})*(?:[A-Za-z0-9+/_-]{2}(?:==)?|[A-Za-z0-9+/_-]{3}=?)?$/;

/** The reflected type of a message of the package, by full name ("palisade.v1.AcquireRequest"). */
export function messageType(fullName: string): protobuf.Type {
  return root.lookupType(fullName);
}

/** A field's name as the .proto file spells it (the descriptor keeps it when it differs). */
function protoName(field: protobuf.Field): string {
  return (
    (field as { protoName?: string }).protoName ??
    field.name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)
  );
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "string") return `the string ${JSON.stringify(value.slice(0, 40))}`;
  if (typeof value === "number") return `the number ${value}`;
  return `${typeof value === "object" ? "an object" : `a ${typeof value}`}`;
}

function refuse(path: string, expected: string, value: unknown): never {
  throw new JsonMappingError(`${path}: expected ${expected}, got ${describe(value)}`);
}

function int64Of(path: string, type: string, value: unknown): Long {
  let n: bigint;
  if (typeof value === "string") {
    if (!/^-?\d{1,20}$/.test(value)) refuse(path, `a decimal integer string (${type})`, value);
    n = BigInt(value);
  } else if (typeof value === "number") {
    if (!Number.isInteger(value)) refuse(path, `an integer (${type})`, value);
    if (!Number.isSafeInteger(value))
      throw new JsonMappingError(
        `${path}: a JSON number above 2^53 - 1 loses precision (it reads as ${value}); send ${type} values as decimal strings`,
      );
    n = BigInt(value);
  } else {
    return refuse(path, `a decimal integer string (${type})`, value);
  }
  const unsigned = UNSIGNED_64.has(type);
  const [min, max] = unsigned ? [0n, U64_MAX] : [I64_MIN, I64_MAX];
  if (n < min || n > max) throw new JsonMappingError(`${path}: ${n} is out of range for ${type}`);
  return Long.fromString(n.toString(), unsigned);
}

function scalarOf(path: string, field: protobuf.Field, value: unknown): unknown {
  const type = field.type;
  const range = INT32_RANGE[type];
  if (range) {
    const n = typeof value === "string" && /^-?\d{1,10}$/.test(value) ? Number(value) : value;
    if (typeof n !== "number" || !Number.isInteger(n))
      return refuse(path, `an integer (${type})`, value);
    if (n < range[0] || n > range[1])
      throw new JsonMappingError(`${path}: ${n} is out of range for ${type}`);
    return n;
  }
  if (UNSIGNED_64.has(type) || SIGNED_64.has(type)) return int64Of(path, type, value);
  switch (type) {
    case "string":
      return typeof value === "string" ? value : refuse(path, "a string", value);
    case "bool":
      return typeof value === "boolean" ? value : refuse(path, "true or false", value);
    case "double":
    case "float":
      return typeof value === "number" ? value : refuse(path, "a number", value);
    case "bytes": {
      if (typeof value !== "string" || !BASE64.test(value)) return refuse(path, "base64", value);
      return new Uint8Array(
        Buffer.from(value, value.includes("-") || value.includes("_") ? "base64url" : "base64"),
      );
    }
  }
  const resolved = field.resolvedType;
  if (resolved instanceof protobuf.Enum) {
    if (typeof value === "string" && Object.hasOwn(resolved.values, value))
      return resolved.values[value];
    if (typeof value === "number" && Object.values(resolved.values).includes(value)) return value;
    return refuse(path, `one of ${Object.keys(resolved.values).join(", ")}`, value);
  }
  throw new JsonMappingError(`${path}: fields of type ${type} are not supported`);
}

/** A plain object for `type.fromObject`, checked field by field. */
function objectOf(
  type: protobuf.Type,
  json: unknown,
  path: string,
  depth: number,
): Record<string, unknown> {
  if (depth > MAX_DEPTH) throw new JsonMappingError(`${path}: nested more than ${MAX_DEPTH} deep`);
  if (typeof json !== "object" || json === null || Array.isArray(json))
    return refuse(path || type.name, `a ${type.name} object`, json);
  const out: Record<string, unknown> = {};
  const oneofsSet = new Map<string, string>();
  for (const [key, value] of Object.entries(json)) {
    // Own fields only: "constructor" or "__proto__" name no field.
    const field = Object.hasOwn(type.fields, key)
      ? type.fields[key]
      : type.fieldsArray.find((f) => protoName(f) === key);
    const at = path ? `${path}.${key}` : key;
    if (!field) throw new JsonMappingError(`${at}: ${type.name} has no such field`);
    if (field.name in out)
      throw new JsonMappingError(`${at}: ${field.name} is given twice (in two spellings)`);
    if (value === null) continue;
    const oneof = field.partOf;
    if (oneof && !oneof.name.startsWith("_")) {
      const other = oneofsSet.get(oneof.name);
      if (other !== undefined)
        throw new JsonMappingError(
          `${at}: ${other} and ${field.name} are one choice (${oneof.name})`,
        );
      oneofsSet.set(oneof.name, field.name);
    }
    if (field.map) throw new JsonMappingError(`${at}: map fields are not supported`);
    if (field.repeated) {
      if (!Array.isArray(value)) refuse(at, "an array", value);
      out[field.name] = (value as unknown[]).map((item, i) => {
        if (item === null) refuse(`${at}[${i}]`, "a value", item);
        const resolved = field.resolvedType;
        return resolved instanceof protobuf.Type
          ? objectOf(resolved, item, `${at}[${i}]`, depth + 1)
          : scalarOf(`${at}[${i}]`, field, item);
      });
      continue;
    }
    const resolved = field.resolvedType;
    out[field.name] =
      resolved instanceof protobuf.Type
        ? objectOf(resolved, value, at, depth + 1)
        : scalarOf(at, field, value);
  }
  return out;
}

/** The protobuf encoding of `json` as a message of `type`; throws JsonMappingError. */
export function encodeFromJson(type: protobuf.Type, json: unknown): Uint8Array {
  const message = type.fromObject(objectOf(type, json, "", 1));
  return type.encode(message).finish();
}

const TO_JSON: protobuf.IConversionOptions = {
  longs: String,
  enums: String,
  bytes: String,
  defaults: true,
  arrays: true,
};

/** proto3 JSON of a message of `type` given as its protobuf encoding. */
export function jsonFromEncoded(type: protobuf.Type, bytes: Uint8Array): Record<string, unknown> {
  return type.toObject(type.decode(bytes), TO_JSON);
}
