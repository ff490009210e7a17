package io.nearline.common.store;

/**
 * A transient store failure: timeouts, temporary failures, a node down. Retry with backoff. The
 * operation may have been applied (an ambiguous timeout), which is safe because every job write is a
 * version-checked, idempotent write.
 */
public class StoreUnavailableException extends StoreException {
    public StoreUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }

    public StoreUnavailableException(String message) {
        super(message);
    }
}
