package io.nearline.store.couchbase;

import io.nearline.cacheupdater.testkit.CacheStoreContract;
import io.nearline.common.store.CacheStore;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testcontainers.couchbase.BucketDefinition;
import org.testcontainers.couchbase.CouchbaseContainer;
import org.testcontainers.utility.DockerImageName;

import java.time.Duration;

/** The store contract against a real Couchbase Server in Docker; skipped with a reason where Docker is absent. */
@ExtendWith(RequiresDocker.class)
class CouchbaseServerCacheStoreIT extends CacheStoreContract {

    private static final String IMAGE = System.getProperty("nearline.couchbase.image", "couchbase/server:community-7.6.2");
    private static final String BUCKET = "nearline";

    private static CouchbaseContainer server;
    private static CouchbaseCacheStore store;

    @BeforeAll
    static void start() {
        server = new CouchbaseContainer(DockerImageName.parse(IMAGE).asCompatibleSubstituteFor("couchbase/server"))
                .withBucket(new BucketDefinition(BUCKET));
        server.start();
        store = CouchbaseCacheStore.connect(settings());
    }

    private static CouchbaseStoreSettings settings() {
        return new CouchbaseStoreSettings(server.getConnectionString(), server.getUsername(), server.getPassword(),
                BUCKET, "_default", "_default", Duration.ofMillis(2500), Duration.ofSeconds(30),
                Duration.ofSeconds(30), 20, 0.5);
    }

    @AfterAll
    static void stop() {
        if (store != null) {
            store.close();
        }
        if (server != null) {
            server.stop();
        }
    }

    @Override
    protected CacheStore store() {
        return store;
    }

    @Override
    protected CacheStore reopen() {
        store.close();
        store = CouchbaseCacheStore.connect(settings());
        return store;
    }

    @Override
    protected CacheStore closedStore() {
        return CouchbaseCacheStore.connect(settings());
    }

    /** Couchbase counts expiry in whole seconds. */
    @Override
    protected Duration shortTtl() {
        return Duration.ofSeconds(2);
    }
}
