package io.nearline.common.store;

/** A store failure that retrying will not fix (bad credentials, unknown bucket, closed store...). */
public class StoreException extends RuntimeException {
    public StoreException(String message) {
        super(message);
    }

    public StoreException(String message, Throwable cause) {
        super(message, cause);
    }
}
