package io.nearline.cacheupdater.core;

import io.nearline.cacheupdater.testkit.CacheStoreContract;
import io.nearline.cacheupdater.testkit.InMemoryCacheStore;
import io.nearline.common.store.CacheStore;

/** The contract run against the in-memory store, which also proves the contract itself in the fast tier. */
class InMemoryCacheStoreContractTest extends CacheStoreContract {

    private final InMemoryCacheStore store = new InMemoryCacheStore();

    @Override
    protected CacheStore store() {
        return store;
    }

    @Override
    protected CacheStore closedStore() {
        return new InMemoryCacheStore();
    }
}
