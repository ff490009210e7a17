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

import com.couchbase.mock.Bucket;
import com.couchbase.mock.BucketConfiguration;
import com.couchbase.mock.CouchbaseMock;
import io.nearline.common.config.Config;
import java.util.List;
import java.util.Map;

/**
 * CouchbaseMock, Couchbase's protocol-level test server, in this JVM with one bucket. Its nodes
 * advertise 127.0.0.1 and clients connect there only (its HTTP port binds every interface; nothing
 * but this JVM talks to it). Start with {@link #start}, stop with {@link #close}.
 */
public final class CouchbaseMockServer implements AutoCloseable {

    public static final String BUCKET = "nearline";
    public static final String PASSWORD = "secret-for-tests";

    private final CouchbaseMock mock;

    private CouchbaseMockServer(CouchbaseMock mock) {
        this.mock = mock;
    }

    public static CouchbaseMockServer start() throws Exception {
        BucketConfiguration bucket = new BucketConfiguration();
        bucket.name = BUCKET;
        bucket.password = PASSWORD;
        bucket.type = Bucket.BucketType.COUCHBASE;
        bucket.numNodes = 1;
        bucket.numReplicas = 0;
        bucket.numVBuckets = 64;
        bucket.hostname = "127.0.0.1";
        CouchbaseMock mock = new CouchbaseMock(0, List.of(bucket));
        mock.start();
        mock.waitForStartup();
        return new CouchbaseMockServer(mock);
    }

    /** Both ports, since the mock's are not the defaults: the SDK bootstraps over KV and needs the manager port too. */
    public String connectionString() {
        return "couchbase://127.0.0.1:" + mock.getCarrierPort(BUCKET) + "=kv,127.0.0.1:" + mock.getHttpPort()
                + "=manager";
    }

    /** Settings of a store on this server's bucket (the mock authenticates bucket name + password). */
    public CouchbaseStoreSettings settings() {
        return settings(Map.of());
    }

    /** The same with some settings overridden, e.g. {@code couchbase.kv-timeout}. */
    public CouchbaseStoreSettings settings(Map<String, String> overrides) {
        return CouchbaseStoreSettings.from(Config.of(Map.of(
                        "couchbase.connection-string",
                        connectionString(),
                        "couchbase.username",
                        BUCKET,
                        "couchbase.password",
                        SecretFiles.reference(PASSWORD),
                        "couchbase.bucket",
                        BUCKET))
                .withOverrides(overrides));
    }

    @Override
    public void close() {
        mock.stop();
    }
}
