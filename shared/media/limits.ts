/** Bytes in a mebibyte. */
export const MiB = 1024 * 1024;

/**
 * The most media one message carries, either way: the API's multipart body limit, the largest file
 * `POST /api/media/uploads` signs for, the network's largest video and document through this API,
 * what the host fetches for a send, what the driver downloads of an inbound file, and the largest
 * video analysed. One figure, so a file the API accepts is never refused further on for its size.
 */
export const MEDIA_MAX_BYTES = 64 * MiB;
