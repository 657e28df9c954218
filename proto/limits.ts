// The sizes of the contract that both ends read: how many session ids a keepalive,
// how many requests and bytes a Stream frame, and how many entries a page may carry. Free of
// any gRPC import, so the node's pure modules read them too.

/** Session ids one KeepAlive request may carry; more is INVALID_ARGUMENT. */
export const MAX_KEEPALIVE_SESSION_IDS = 4_096;

/** Entries of a ListLocks or ListSessions page, and of a GetLock list, when the request leaves its limit at 0 (unset for GetLock). */
export const DEFAULT_PAGE_SIZE = 100;
/** The most entries one page may ask for; more is INVALID_ARGUMENT. */
export const MAX_PAGE_SIZE = 1_000;

/** Requests one Stream ClientFrame may carry; more ends the stream with RESOURCE_EXHAUSTED. */
export const STREAM_MAX_REQUESTS_PER_FRAME = 4_096;
/** Bytes of one Stream ClientFrame at most; more ends the stream with RESOURCE_EXHAUSTED. */
export const STREAM_MAX_FRAME_BYTES = 1024 * 1024;
/**
 * Bytes of one StreamRequest at most: a larger one is answered RESOURCE_EXHAUSTED without
 * being decoded (the client sends such a request as a unary call).
 */
export const STREAM_MAX_REQUEST_BYTES = 64 * 1024;
