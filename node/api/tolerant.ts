// Service definitions whose request decoding never throws. grpc-js answers a request it
// cannot decode with INTERNAL; Palisade answers INVALID_ARGUMENT, so the handler receives
// a marker instead and reports what was wrong with the bytes.
import type * as grpc from "@grpc/grpc-js";

const MALFORMED = Symbol("malformed request");

interface MalformedMarker {
  readonly [MALFORMED]: string;
}

/** The decoding problem if `request` is a marker for undecodable bytes, else null. */
export function malformedReason(request: unknown): string | null {
  if (typeof request === "object" && request !== null && MALFORMED in request) {
    return (request as MalformedMarker)[MALFORMED];
  }
  return null;
}

/** A copy of `definition` whose request deserializers hand malformed bytes to the handler as a marker. */
export function tolerantDefinition<Def extends grpc.ServiceDefinition>(definition: Def): Def {
  const out: Record<string, grpc.MethodDefinition<unknown, unknown>> = {};
  for (const [name, method] of Object.entries(definition)) {
    const decode = method.requestDeserialize;
    out[name] = {
      ...method,
      requestDeserialize: (bytes: Buffer): unknown => {
        try {
          return decode(bytes);
        } catch (error) {
          const marker: MalformedMarker = {
            [MALFORMED]: error instanceof Error ? error.message : String(error),
          };
          return marker;
        }
      },
    };
  }
  return out as Def;
}
