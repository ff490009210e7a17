package io.nearline.store.couchbase;

import io.nearline.common.config.Config;
import java.util.Map;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testcontainers.couchbase.BucketDefinition;
import org.testcontainers.couchbase.CouchbaseContainer;
import org.testcontainers.utility.DockerImageName;

/** The store contract against a real Couchbase Server in Docker; skipped with a reason where Docker is absent. */
@ExtendWith(RequiresDocker.class)
class CouchbaseServerCacheStoreIT extends CouchbaseStoreContract {

    private static final String IMAGE =
            System.getProperty("nearline.couchbase.image", "couchbase/server:community-7.6.2");
    private static final String BUCKET = "nearline";

    private CouchbaseContainer server;

    @Override
    protected CouchbaseStoreSettings startServer() {
        server = new CouchbaseContainer(DockerImageName.parse(IMAGE).asCompatibleSubstituteFor("couchbase/server"))
                .withBucket(new BucketDefinition(BUCKET));
        server.start();
        return CouchbaseStoreSettings.from(Config.of(Map.of(
                "couchbase.connection-string", server.getConnectionString(),
                "couchbase.username", server.getUsername(),
                "couchbase.password", SecretFiles.reference(server.getPassword()),
                "couchbase.bucket", BUCKET,
                "couchbase.connect-timeout", "30s")));
    }

    @Override
    protected void stopServer() {
        if (server != null) {
            server.stop();
        }
    }
}
