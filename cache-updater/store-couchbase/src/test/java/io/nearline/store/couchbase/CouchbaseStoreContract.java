package io.nearline.store.couchbase;

import io.nearline.cacheupdater.testkit.ServerStoreContract;
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
