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
package io.nearline.cacheupdater.storecouchbase;

import io.nearline.cacheupdater.core.contract.ServerStoreContract;
import io.nearline.common.store.CacheStore;
import java.time.Duration;

/** The store contract on a Couchbase server that a subclass starts once for all its tests. */
abstract class CouchbaseStoreContract extends ServerStoreContract<CouchbaseStoreSettings> {

    @Override
    protected CacheStore connect(CouchbaseStoreSettings settings) {
        return CouchbaseCacheStore.connect(settings);
    }

    /** Couchbase counts expiry in whole seconds: a 1 s TTL can lapse within milliseconds of the write. */
    @Override
    protected Duration shortTtl() {
        return Duration.ofSeconds(2);
    }
}
