package io.nearline.store.couchbase;

import io.nearline.cacheupdater.testkit.CacheStoreContract;
import io.nearline.common.store.CacheStore;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;

/** The store contract on a Couchbase server that a subclass starts once for all its tests. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class CouchbaseStoreContract extends CacheStoreContract {

    private CouchbaseStoreSettings settings;
    private CouchbaseCacheStore store;

    /** Starts the server and returns the settings to reach it. */
    protected abstract CouchbaseStoreSettings startServer() throws Exception;

    protected abstract void stopServer();

    @BeforeAll
    void connect() throws Exception {
        settings = startServer();
        store = CouchbaseCacheStore.connect(settings);
    }

    @AfterAll
    void disconnect() {
        if (store != null) {
            store.close();
        }
        stopServer();
    }

    @Override
    protected CacheStore store() {
        return store;
    }

    /** A new client on the same server: the data lives in Couchbase, not in the client. */
    @Override
    protected CacheStore reopen() {
        store.close();
        store = CouchbaseCacheStore.connect(settings);
        return store;
    }

    @Override
    protected CacheStore closedStore() {
        return CouchbaseCacheStore.connect(settings);
    }

    /** Couchbase counts expiry in whole seconds: a 1 s TTL can lapse within milliseconds of the write. */
    @Override
    protected Duration shortTtl() {
        return Duration.ofSeconds(2);
    }
}
