package io.nearline.store.couchbase;

import io.nearline.cacheupdater.testkit.CacheStoreContract;
import io.nearline.common.store.CacheStore;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** The store contract against CouchbaseMock through the real Couchbase Java SDK. */
class CouchbaseMockCacheStoreIT extends CacheStoreContract {

    private static CouchbaseMockServer server;
    private static CouchbaseCacheStore store;

    @BeforeAll
    static void start() throws Exception {
        server = CouchbaseMockServer.start();
        store = CouchbaseCacheStore.connect(server.settings());
    }

    @AfterAll
    static void stop() {
        if (store != null) {
            store.close();
        }
        if (server != null) {
            server.close();
        }
    }

    @Override
    protected CacheStore store() {
        return store;
    }

    /** A new client on the same server: data lives in Couchbase, not in the client. */
    @Override
    protected CacheStore reopen() {
        store.close();
        store = CouchbaseCacheStore.connect(server.settings());
        return store;
    }

    @Override
    protected CacheStore closedStore() {
        return CouchbaseCacheStore.connect(server.settings());
    }

    /** Couchbase counts expiry in whole seconds: a 1 s TTL can lapse within milliseconds of the write. */
    @Override
    protected java.time.Duration shortTtl() {
        return java.time.Duration.ofSeconds(2);
    }

    // CouchbaseMock serves a few thousand operations a second: race on a smaller scale.
    @Override
    protected int raceKeys() {
        return 30;
    }

    @Override
    protected int hotKeyHistoryLength() {
        return 80;
    }
}
