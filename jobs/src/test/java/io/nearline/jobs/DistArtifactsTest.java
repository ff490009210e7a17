package io.nearline.jobs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.opentest4j.AssertionFailedError;

/**
 * What {@code ./mvnw package} leaves in {@code jobs/target/dist}: the Flink jars a cluster runs
 * (Flink, the broker and the local tools not inside; the connector, Avro, stores and the job are) and
 * the Samza packages in Samza's layout.
 */
class DistArtifactsTest {

    private static final Path DIST = Path.of(System.getProperty("nearline.dist", "target/dist"));
    private static final long MB = 1024 * 1024;

    /** Entries no job jar may hold: the engine itself, a Kafka broker, the local tools, a logging binding. */
    private static final List<String> FORBIDDEN = List.of(
            "org/apache/flink/runtime/",
            "kafka/server/",
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
                "io/nearline/store/couchbase/CouchbaseCacheStore.class",
                "io/nearline/store/redis/RedisCacheStore.class",
                "io/nearline/store/redis/nearline_v1.lua",
                "io/nearline/store/rocksdb/RocksDbCacheStore.class",
                "org/apache/flink/connector/kafka/source/KafkaSource.class",
                "org/apache/kafka/clients/consumer/KafkaConsumer.class",
                "org/apache/avro/Schema.class",
                "com/couchbase/client/java/Cluster.class",
                "META-INF/services/io.nearline.common.store.CacheStoreProvider");
    }

    @Test
    void trackingJoinFlinkJar() throws IOException {
        assertFlinkJar(
                "nearline-tracking-join-flink.jar",
                "io.nearline.tracking.flink.TrackingJoinJob",
                40,
                "io/nearline/tracking/flink/TrackingJoinJob.class",
                "io/nearline/tracking/join/TrackingJoin.class",
                "org/apache/flink/connector/kafka/sink/KafkaSink.class",
                "org/apache/avro/Schema.class");
    }

    /** Entry name to content (for text entries we look into) of a .tar.gz. */
    private static Map<String, String> tarEntries(String name) throws IOException {
        Map<String, String> entries = new HashMap<>();
        try (InputStream in = new GZIPInputStream(new BufferedInputStream(Files.newInputStream(DIST.resolve(name))))) {
            byte[] header = new byte[512];
            while (in.readNBytes(header, 0, 512) == 512 && header[0] != 0) {
                String entry = new String(header, 0, 100, StandardCharsets.US_ASCII)
                        .trim()
                        .replace("\0", "");
                String prefix = new String(header, 345, 155, StandardCharsets.US_ASCII)
                        .replace("\0", "")
                        .trim();
                if (!prefix.isEmpty()) {
                    entry = prefix + "/" + entry;
                }
                long size = Long.parseLong(
                        new String(header, 124, 12, StandardCharsets.US_ASCII)
                                .replace("\0", "")
                                .trim(),
                        8);
                byte[] body = in.readNBytes((int) Math.min(size, Integer.MAX_VALUE));
                in.skipNBytes((512 - size % 512) % 512);
                entries.put(entry, entry.endsWith(".properties") ? new String(body, StandardCharsets.UTF_8) : "");
            }
        }
        return entries;
    }

    private static void assertSamzaPackage(String name, String config, String appClass, String jobJar)
            throws IOException {
        Map<String, String> entries = tarEntries(name);
        assertTrue(entries.containsKey("bin/run-app.sh"), name + " lacks bin/run-app.sh");
        assertTrue(entries.containsKey("bin/run-class.sh"), name + " lacks bin/run-class.sh");
        String properties = entries.get("config/" + config);
        assertTrue(properties != null, name + " lacks config/" + config);
        for (String key : List.of(
                "app.class=" + appClass,
                "job.factory.class=org.apache.samza.job.yarn.YarnJobFactory",
                "systems.kafka.samza.factory=",
                "task.checkpoint.factory=",
                "metrics.reporters=")) {
            assertTrue(properties.contains(key), "config/" + config + " lacks " + key);
        }
        List<String> lib = new ArrayList<>(
                entries.keySet().stream().filter(e -> e.startsWith("lib/")).toList());
        for (String jar : List.of(
                jobJar,
                "samza-core_2.12-1.8.0.jar",
                "samza-kafka_2.12-1.8.0.jar",
                "samza-yarn_2.12-1.8.0.jar",
                "samza-kv-rocksdb_2.12-1.8.0.jar",
                "log4j-slf4j2-impl")) {
            assertTrue(lib.stream().anyMatch(e -> e.startsWith("lib/" + jar)), name + " lacks lib/" + jar);
        }
        assertTrue(lib.stream().noneMatch(e -> e.contains("local-cluster") || e.contains("flink")), name + ": " + lib);
    }

    @Test
    void cacheUpdaterSamzaPackage() throws IOException {
        assertSamzaPackage(
                "nearline-cache-updater-samza.tar.gz",
                "cache-updater.properties",
                "io.nearline.cacheupdater.samza.CacheUpdaterApp",
                "cache-updater-samza-");
    }

    @Test
    void trackingJoinSamzaPackage() throws IOException {
        assertSamzaPackage(
                "nearline-tracking-join-samza.tar.gz",
                "tracking-join.properties",
                "io.nearline.tracking.samza.JoinApp",
                "feed-tracking-join-samza-");
    }
}
