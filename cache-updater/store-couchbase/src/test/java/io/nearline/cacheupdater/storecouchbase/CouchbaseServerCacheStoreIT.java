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
