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
package io.nearline.localcluster.couchbasemock;

import com.couchbase.mock.Bucket;
import com.couchbase.mock.BucketConfiguration;
import com.couchbase.mock.CouchbaseMock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CountDownLatch;

/**
 * CouchbaseMock as a local cluster's cache:
 * {@code java -jar nearline-couchbase-mock.jar --host H --port P [--kv-port K] --bucket B --password-file F}.
 * One node, one bucket (authenticated by bucket name and the password in F), advertised at H, its
 * key-value port K when given (so that a mock started again is found where clients knew it). Prints
 * {@code COUCHBASE=<connection string>} once the SDK can connect, then runs until terminated. Its HTTP
 * port binds every interface (the mock has no setting for it): run it where only the cluster's own
 * network reaches, as {@code nearline cluster up} does (a network namespace of its own).
 */
public final class CouchbaseMockMain {

    public static final String READY_PREFIX = "COUCHBASE=";

    private CouchbaseMockMain() {}

    public static void main(String[] args) throws Exception {
        String host = "127.0.0.1";
        int port = 0;
        int kvPort = 0;
        String bucketName = "nearline";
        Path passwordFile = null;
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--host" -> host = args[i + 1];
                case "--port" -> port = Integer.parseInt(args[i + 1]);
                case "--kv-port" -> kvPort = Integer.parseInt(args[i + 1]);
                case "--bucket" -> bucketName = args[i + 1];
                case "--password-file" -> passwordFile = Path.of(args[i + 1]);
                default -> usage("unknown option " + args[i]);
            }
        }
        if (passwordFile == null) {
            usage("--password-file is required");
        }
        BucketConfiguration bucket = new BucketConfiguration();
        bucket.name = bucketName;
        bucket.password = Files.readString(passwordFile, StandardCharsets.UTF_8).strip();
        bucket.type = Bucket.BucketType.COUCHBASE;
        bucket.numNodes = 1;
        bucket.numReplicas = 0;
        bucket.numVBuckets = 64;
        bucket.hostname = host;
        bucket.bucketStartPort = kvPort;
        CouchbaseMock mock = new CouchbaseMock(port, List.of(bucket));
        mock.start();
        mock.waitForStartup();
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> {
                            mock.stop();
                            stopped.countDown();
                        },
                        "couchbase-mock-shutdown"));
        System.out.println(READY_PREFIX + "couchbase://" + host + ":" + mock.getCarrierPort(bucketName) + "=kv," + host
                + ":" + mock.getHttpPort() + "=manager");
        System.out.flush();
        stopped.await();
    }

    private static void usage(String problem) {
        System.err.println(problem + "; usage: java -jar nearline-couchbase-mock.jar --host H --port P [--kv-port K]"
                + " --bucket B --password-file F");
        System.exit(2);
    }
}
