package io.nearline.cacheupdater.core;

import io.nearline.common.store.StoreException;

/**
 * A row with columns its source did not capture that the cache cannot complete: nothing is cached
 * for the key, a tombstone is, or the cached row lacks those columns too. Permanent for this change:
 * it is dead-lettered as {@code PARTIAL_IMAGE} (docs/debezium.md#partial-images).
 */
public final class PartialImageException extends StoreException {

    private static final long serialVersionUID = 1L;

    public PartialImageException(String message) {
        super(message);
    }
}
