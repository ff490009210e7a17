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
package io.nearline.jobs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.regex.Pattern;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.zip.ZipInputStream;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.opentest4j.AssertionFailedError;

/**
 * What {@code ./mvnw package} leaves in {@code jobs/target/dist}: the Flink jars a cluster runs
 * (Flink, the broker and the local tools not inside; the connector, Avro, stores and the job are) and
 * the Samza packages in Samza's layout, the cache sink's Connect plugin in Confluent Hub's.
 */
class DistArtifactsTest {

    private static final Path DIST = Path.of(System.getProperty("nearline.dist", "target/dist"));
    private static final long MB = 1024 * 1024;

    /**
     * Entries no job jar may hold: the engine itself, a Kafka broker, the tools (the deploy tool, the
     * cluster file and the verifier beside this module, the local stack), a logging binding.
     */
    private static final List<String> FORBIDDEN = List.of(
            "org/apache/flink/runtime/",
            "kafka/server/",
            "io/nearline/jobs/",
            "io/nearline/localcluster/",
            "org/slf4j/",
            "org/apache/logging/");

    private static void assertFlinkJar(String name, String mainClass, long maxMb, String... present)
            throws IOException {
        assertFlinkJar(DIST.resolve(name), mainClass, maxMb, present);
    }

    private static void assertFlinkJar(Path jarFile, String mainClass, long maxMb, String... present)
            throws IOException {
        String name = jarFile.getFileName().toString();
        long size = Files.size(jarFile);
        assertTrue(size <= maxMb * MB, name + " is " + size / MB + " MB, more than " + maxMb + " MB");
        try (JarFile jar = new JarFile(jarFile.toFile())) {
            assertEquals(mainClass, jar.getManifest().getMainAttributes().getValue("Main-Class"));
            List<String> entries = jar.stream().map(JarEntry::getName).toList();
            for (String forbidden : FORBIDDEN) {
                List<String> found = entries.stream()
                        .filter(e -> e.startsWith(forbidden))
                        .limit(3)
                        .toList();
                assertTrue(found.isEmpty(), name + " holds " + found);
            }
            for (String entry : present) {
                assertTrue(entries.contains(entry), name + " lacks " + entry);
            }
        }
    }

    /** Negative control: the same check passes a lean jar and refuses one that carries Flink's runtime. */
    @Test
    void aJarWithTheEngineInsideIsRefused(@TempDir Path dir) throws IOException {
        Path lean = jar(dir.resolve("lean.jar"), "example/Job.class");
        Path fat = jar(dir.resolve("fat.jar"), "example/Job.class", "org/apache/flink/runtime/Engine.class");
        assertFlinkJar(lean, "example.Job", 1, "example/Job.class");
        assertThrows(AssertionFailedError.class, () -> assertFlinkJar(fat, "example.Job", 1, "example/Job.class"));
    }

    private static Path jar(Path file, String... entries) throws IOException {
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        manifest.getMainAttributes().put(Attributes.Name.MAIN_CLASS, "example.Job");
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(file), manifest)) {
            for (String entry : entries) {
                out.putNextEntry(new JarEntry(entry));
                out.write(1);
                out.closeEntry();
            }
        }
        return file;
    }

    @Test
    void cacheUpdaterFlinkJar() throws IOException {
        // the Couchbase SDK is most of it (it shades its own netty and protobuf; its gRPC transport is left out);
        // the Redis store adds about 8 MB (Lettuce, Netty 4.2 and Reactor, relocated into its jar)
        assertFlinkJar(
                "nearline-cache-updater-flink.jar",
                "io.nearline.cacheupdater.flink.CacheUpdaterJob",
                45,
                "io/nearline/cacheupdater/flink/CacheUpdaterJob.class",
                "io/nearline/cacheupdater/flink/BootstrapJob.class",
                "io/nearline/cacheupdater/storecouchbase/CouchbaseCacheStore.class",
                "io/nearline/cacheupdater/storeredis/RedisCacheStore.class",
                "io/nearline/cacheupdater/storeredis/nearline_v2.lua",
                "io/nearline/cacheupdater/storerocksdb/RocksDbCacheStore.class",
                "org/apache/flink/connector/kafka/source/KafkaSource.class",
                "org/apache/kafka/clients/consumer/KafkaConsumer.class",
                "org/apache/avro/Schema.class",
                "com/couchbase/client/java/Cluster.class",
                "META-INF/services/io.nearline.common.store.CacheStoreProvider");
    }

    /** The client library: the codec and the stores' clients, no engine, no Kafka, none of the tools. */
    @Test
    void clientJar() throws IOException {
        Path file = DIST.resolve("nearline-client.jar");
        assertTrue(Files.size(file) <= 40 * MB, "the client is " + Files.size(file) / MB + " MB");
        try (JarFile jar = new JarFile(file.toFile())) {
            List<String> entries = jar.stream().map(JarEntry::getName).toList();
            for (String forbidden : List.of(
                    "org/apache/flink/",
                    "org/apache/samza/",
                    "org/apache/kafka/",
                    "io/nearline/jobs/cluster/",
                    "io/nearline/jobs/deploy/",
                    "io/nearline/jobs/verifier/",
                    "io/nearline/jobs/kit/",
                    "io/nearline/localcluster/",
                    "org/slf4j/")) {
                assertTrue(entries.stream().noneMatch(e -> e.startsWith(forbidden)), "the client holds " + forbidden);
            }
            for (String entry : List.of(
                    "io/nearline/jobs/client/NearlineClient.class",
                    "io/nearline/jobs/client/JdbcRowSource.class",
                    "io/nearline/common/cache/CacheRecordCodec.class",
                    "io/nearline/cacheupdater/storeredis/RedisCacheStore.class",
                    "io/nearline/cacheupdater/storecouchbase/CouchbaseCacheStore.class",
                    "META-INF/services/io.nearline.common.store.CacheStoreProvider")) {
                assertTrue(entries.contains(entry), "the client lacks " + entry);
            }
        }
    }

    @Test
    void trackingJoinFlinkJar() throws IOException {
        assertFlinkJar(
                "nearline-tracking-join-flink.jar",
                "io.nearline.feedtrackingjoin.flink.TrackingJoinJob",
                40,
                "io/nearline/feedtrackingjoin/flink/TrackingJoinJob.class",
                "io/nearline/feedtrackingjoin/core/TrackingJoin.class",
                "org/apache/flink/connector/kafka/sink/KafkaSink.class",
                "org/apache/avro/Schema.class");
    }

    /** A .tar.gz read once: entry names in order, text of .properties entries, natives inside its jars. */
    private record Tar(List<String> names, Map<String, String> properties, List<String> natives) {}

    private static final Pattern NATIVE = Pattern.compile(".*[.](so|dll|dylib|jnilib|a)$");

    /** The native libraries a Samza package keeps: Linux on x86-64 or arm64, glibc. */
    private static final Pattern LINUX_NATIVE = Pattern.compile(
            "(?!.*musl).*(linux64|linux-aarch64|linux/amd64|linux/aarch64|Linux/x86_64|Linux/aarch64|linux-x86-64"
                    + "|epoll_x86_64|epoll_aarch_64)[^/]*/?[^/]*$");

    private static Tar readTar(String name) throws IOException {
        List<String> names = new ArrayList<>();
        Map<String, String> properties = new HashMap<>();
        List<String> natives = new ArrayList<>();
        TarGz.forEachEntry(DIST.resolve(name), (entry, body) -> {
            names.add(entry);
            if (entry.endsWith(".properties")) {
                properties.put(entry, new String(body, StandardCharsets.UTF_8));
            } else if (entry.endsWith(".jar")) {
                try (ZipInputStream jar = new ZipInputStream(new ByteArrayInputStream(body))) {
                    for (ZipEntry e; (e = jar.getNextEntry()) != null; ) {
                        if (NATIVE.matcher(e.getName()).matches()) {
                            natives.add(entry + "!" + e.getName());
                        }
                    }
                }
            }
        });
        return new Tar(names, properties, natives);
    }

    private static void assertSamzaPackage(String name, String config, String appClass, String jobJar, long maxBytes)
            throws IOException {
        long size = Files.size(DIST.resolve(name));
        assertTrue(size <= maxBytes, name + " is " + size / 1_000_000 + " MB, more than " + maxBytes / 1_000_000);
        Tar tar = readTar(name);
        assertTrue(tar.names().contains("bin/run-app.sh"), name + " lacks bin/run-app.sh");
        assertTrue(tar.names().contains("bin/run-class.sh"), name + " lacks bin/run-class.sh");
        // a container with Prometheus's JMX exporter: our launcher, the agent off the classpath, its rules
        for (String exporter : List.of(
                "bin/run-container-exporting.sh",
                "agent/jmx_prometheus_javaagent.jar",
                "config/samza-jmx-exporter.yaml")) {
            assertTrue(tar.names().contains(exporter), name + " lacks " + exporter);
        }
        String properties = tar.properties().get("config/" + config);
        assertTrue(properties != null, name + " lacks config/" + config);
        for (String key : List.of(
                "app.class=" + appClass,
                "job.factory.class=org.apache.samza.job.yarn.YarnJobFactory",
                "systems.kafka.samza.factory=",
                "task.checkpoint.factory=",
                "metrics.reporters=")) {
            assertTrue(properties.contains(key), "config/" + config + " lacks " + key);
        }
        List<String> lib =
                tar.names().stream().filter(e -> e.startsWith("lib/")).toList();
        assertEquals(new HashSet<>(lib).size(), lib.size(), name + " holds a jar twice: " + lib);
        for (String jar : List.of(
                jobJar,
                "samza-core_2.12-1.8.0.jar",
                "samza-kafka_2.12-1.8.0.jar",
                "samza-yarn_2.12-1.8.0.jar",
                "samza-kv-rocksdb_2.12-1.8.0.jar",
                "rocksdbjni-",
                "zstd-jni-",
                "hadoop-hdfs-client-",
                "log4j-slf4j2-impl")) {
            assertTrue(lib.stream().anyMatch(e -> e.startsWith("lib/" + jar)), name + " lacks lib/" + jar);
        }
        assertTrue(lib.stream().noneMatch(e -> e.contains("local-cluster") || e.contains("flink")), name + ": " + lib);
        assertTrue(
                lib.stream().noneMatch(e -> e.contains("jmx_prometheus")),
                name + ": the agent is not for the classpath");
        for (String left :
                List.of("hadoop-hdfs-2", "netty-all-", "scala-compiler-", "scala-reflect-", "leveldbjni-", "jetty-6")) {
            assertTrue(lib.stream().noneMatch(e -> e.startsWith("lib/" + left)), name + " holds lib/" + left);
        }
        List<String> foreign = tar.natives().stream()
                .filter(n -> !LINUX_NATIVE.matcher(n).matches())
                .toList();
        assertTrue(foreign.isEmpty(), name + " holds native libraries YARN's Linux nodes never load: " + foreign);
        for (String kept : List.of("librocksdbjni-linux64.so", "librocksdbjni-linux-aarch64.so")) {
            assertTrue(tar.natives().stream().anyMatch(n -> n.endsWith("!" + kept)), name + " lacks " + kept);
        }
    }

    /** Negative control: the native-library rule keeps Linux x86-64 and arm64 (glibc) only. */
    @Test
    void onlyLinuxNativesAreKept() {
        for (String kept : List.of(
                "lib/rocksdbjni-7.0.3.jar!librocksdbjni-linux64.so",
                "lib/rocksdbjni-7.0.3.jar!librocksdbjni-linux-aarch64.so",
                "lib/zstd-jni-1.4.3-1.jar!linux/amd64/libzstd-jni.so",
                "lib/snappy-java-1.1.7.3.jar!org/xerial/snappy/native/Linux/aarch64/libsnappyjava.so",
                "lib/jna-5.12.1.jar!com/sun/jna/linux-x86-64/libjnidispatch.so",
                "lib/core-io-3.12.1.jar!META-INF/native/libcom_couchbase_client_core_deps_netty_transport_native_epoll_x86_64.so")) {
            assertTrue(LINUX_NATIVE.matcher(kept).matches(), kept);
        }
        for (String dropped : List.of(
                "lib/rocksdbjni-7.0.3.jar!librocksdbjni-linux64-musl.so",
                "lib/rocksdbjni-7.0.3.jar!librocksdbjni-osx-arm64.jnilib",
                "lib/rocksdbjni-7.0.3.jar!librocksdbjni-win64.dll",
                "lib/rocksdbjni-7.0.3.jar!librocksdbjni-linux-s390x.so",
                "lib/zstd-jni-1.4.3-1.jar!linux/ppc64le/libzstd-jni.so",
                "lib/snappy-java-1.1.7.3.jar!org/xerial/snappy/native/Mac/x86_64/libsnappyjava.jnilib",
                "lib/jna-5.12.1.jar!com/sun/jna/linux-arm/libjnidispatch.so",
                "lib/core-io-3.12.1.jar!META-INF/native/libcom_couchbase_client_core_deps_netty_tcnative_osx_x86_64.jnilib")) {
            assertFalse(LINUX_NATIVE.matcher(dropped).matches(), dropped);
        }
    }

    @Test
    void cacheUpdaterSamzaPackage() throws IOException {
        assertSamzaPackage(
                "nearline-cache-updater-samza.tar.gz",
                "cache-updater.properties",
                "io.nearline.cacheupdater.samza.CacheUpdaterApp",
                "cache-updater-samza-",
                90_000_000);
    }

    @Test
    void trackingJoinSamzaPackage() throws IOException {
        assertSamzaPackage(
                "nearline-tracking-join-samza.tar.gz",
                "tracking-join.properties",
                "io.nearline.feedtrackingjoin.samza.JoinApp",
                "feed-tracking-join-samza-",
                90_000_000);
    }

    /** Jars a Connect plugin must leave to the worker: its own copies would be loaded apart from the worker's. */
    private static final List<String> WORKER_PROVIDED = List.of("kafka-clients-", "connect-api-", "slf4j-api-");

    /** The layout Confluent Hub uses, one top folder: manifest.json, doc/, lib/ with the connector and no Kafka. */
    private static void assertConnectPlugin(Path zipFile, long maxMb) throws IOException {
        String name = zipFile.getFileName().toString();
        long size = Files.size(zipFile);
        assertTrue(size <= maxMb * MB, name + " is " + size / MB + " MB, more than " + maxMb + " MB");
        try (ZipFile zip = new ZipFile(zipFile.toFile())) {
            List<String> entries = zip.stream().map(ZipEntry::getName).toList();
            String top = "nearline-cache-sink-connect/";
            assertTrue(entries.stream().allMatch(e -> e.startsWith(top)), name + ": one top folder, " + top);
            assertTrue(entries.contains(top + "manifest.json"), name + " lacks manifest.json");
            assertTrue(entries.contains(top + "doc/README.md"), name + " lacks doc/README.md");
            List<String> lib = entries.stream()
                    .filter(e -> e.startsWith(top + "lib/") && e.endsWith(".jar"))
                    .map(e -> e.substring((top + "lib/").length()))
                    .toList();
            for (String provided : WORKER_PROVIDED) {
                assertTrue(lib.stream().noneMatch(j -> j.startsWith(provided)), name + " holds " + provided);
            }
            assertTrue(lib.stream().anyMatch(j -> j.startsWith("cache-updater-connect-")), name + ": " + lib);
            String manifest = new String(
                    zip.getInputStream(zip.getEntry(top + "manifest.json")).readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(manifest.contains("\"component_types\": [\"sink\"]"), manifest);
            assertTrue(!manifest.contains("${"), "manifest.json is filtered: " + manifest);
        }
    }

    @Test
    void cacheSinkConnectPlugin() throws IOException {
        assertConnectPlugin(DIST.resolve("nearline-cache-sink-connect.zip"), 60);
    }

    /** Negative control: a plugin carrying its own Kafka client is refused. */
    @Test
    void aPluginWithKafkaInsideIsRefused(@TempDir Path dir) throws IOException {
        Path zip = dir.resolve("plugin.zip");
        try (ZipOutputStream out = new ZipOutputStream(Files.newOutputStream(zip))) {
            for (String entry : List.of(
                    "manifest.json",
                    "doc/README.md",
                    "lib/cache-updater-connect-1.jar",
                    "lib/kafka-clients-4.1.2.jar")) {
                out.putNextEntry(new ZipEntry("nearline-cache-sink-connect/" + entry));
                out.write("{\"component_types\": [\"sink\"]}".getBytes(StandardCharsets.UTF_8));
                out.closeEntry();
            }
        }
        AssertionFailedError refused = assertThrows(AssertionFailedError.class, () -> assertConnectPlugin(zip, 1));
        assertTrue(refused.getMessage().contains("kafka-clients-"), refused.getMessage());
    }
}
