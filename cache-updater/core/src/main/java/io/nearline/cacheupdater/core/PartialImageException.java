/*
 * Copyright 2026 The Nearline Authors
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *     http://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */
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
