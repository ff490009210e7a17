package io.nearline.common.cache;

/** Bytes in a cache that are not a cache record this reader understands. */
public class CorruptCacheRecordException extends RuntimeException {
    public CorruptCacheRecordException(String message) {
        super(message);
    }
}
