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
package io.nearline.jobs.checker;

import io.nearline.common.cache.CacheKey;
import io.nearline.common.cache.CacheRecord;
import io.nearline.common.cache.CacheRecordCodec;
import io.nearline.common.store.CacheStore;
import java.util.Optional;

/** A cache as the divergence checker sees it: the record of a key, if any. */
@FunctionalInterface
public interface CacheView {

    Optional<CacheRecord> get(CacheKey key);

    static CacheView of(CacheStore store) {
        return key -> store.get(key).map(stored -> CacheRecordCodec.decode(stored.value()));
    }
}
