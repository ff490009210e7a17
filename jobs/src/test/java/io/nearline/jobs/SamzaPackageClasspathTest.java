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
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URI;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A Samza package leaves out what Hadoop's client and the stores' SDKs bring for servers, other
 * platforms and transports a job does not use (engines/samza-kit/src/assembly/samza-package.xml). This
 * loads, from the package's lib/ alone, the classes the AM, a container and the submitting client start
 * with, and runs the parts that reach the trimmed jars on this Linux machine: the container's
 * statistics (OSHI and JNA's platform API), a Hadoop login and metrics, the YARN client, HDFS's client.
 * YARN itself runs the packages in {@code SamzaYarnDeployIT} (-Dfull) and the CI's drill.
 */
class SamzaPackageClasspathTest {

    private static final Path DIST = Path.of(System.getProperty("nearline.dist", "target/dist"));

    /** Each package's lib/, unpacked once for all the tests that read it. */
    @TempDir
    static Path unpacked;

    private static final Map<String, List<Path>> LIBS = new HashMap<>();

    /** Entry points: the AM's, a container's, the client's, and the job's own. */
    private static final List<String> STARTS = List.of(
            "org.apache.samza.clustermanager.ClusterBasedJobCoordinatorRunner",
            "org.apache.samza.job.yarn.YarnClusterResourceManager",
            "org.apache.samza.job.yarn.SamzaYarnAppMasterService",
            "org.apache.samza.webapp.ApplicationMasterRestServlet",
            "org.apache.samza.webapp.ApplicationMasterWebServlet",
            "org.apache.hadoop.yarn.client.api.async.impl.AMRMClientAsyncImpl",
            "org.apache.hadoop.yarn.client.api.async.impl.NMClientAsyncImpl",
            "org.apache.samza.runtime.LocalContainerRunner",
            "org.apache.samza.container.SamzaContainer",
            "org.apache.samza.system.kafka.KafkaSystemFactory",
            "org.apache.samza.system.kafka.KafkaStreamSpec",
            "org.apache.samza.checkpoint.kafka.KafkaCheckpointManagerFactory",
            "org.apache.samza.storage.kv.RocksDbKeyValueStorageEngineFactory",
            "org.apache.samza.job.yarn.YarnJobFactory",
            "org.apache.hadoop.yarn.client.api.impl.YarnClientImpl",
            "org.apache.hadoop.hdfs.DistributedFileSystem");

    @Test
    void cacheUpdaterPackageStarts() throws Exception {
        List<Path> lib = lib("nearline-cache-updater-samza.tar.gz");
        List<String> starts = new ArrayList<>(STARTS);
        starts.add("io.nearline.cacheupdater.samza.CacheUpdaterApp");
        starts.add("io.nearline.cacheupdater.storecouchbase.CouchbaseCacheStore");
        starts.add("io.nearline.cacheupdater.storeredis.RedisCacheStore");
        assertEquals(Optional.empty(), firstProblem(lib, starts));
    }

    @Test
    void trackingJoinPackageStarts() throws Exception {
        List<Path> lib = lib("nearline-tracking-join-samza.tar.gz");
        List<String> starts = new ArrayList<>(STARTS);
        starts.add("io.nearline.feedtrackingjoin.samza.JoinApp");
        assertEquals(Optional.empty(), firstProblem(lib, starts));
    }

    /** Negative control: without OSHI's jar, the container's statistics cannot start. */
    @Test
    void aPackageWithoutAJarItUsesIsRefused() throws Exception {
        List<Path> lib = lib("nearline-tracking-join-samza.tar.gz").stream()
                .filter(jar -> !jar.getFileName().toString().startsWith("oshi-core-"))
                .toList();
        Optional<String> problem = firstProblem(lib, STARTS);
        assertTrue(problem.isPresent() && problem.get().contains("oshi"), String.valueOf(problem));
    }

    /** What fails first when the AM, a container and the client start from these jars, if anything. */
    private static Optional<String> firstProblem(List<Path> jars, List<String> starts) throws Exception {
        URL[] urls = new URL[jars.size()];
        for (int i = 0; i < urls.length; i++) {
            urls[i] = jars.get(i).toUri().toURL();
        }
        Thread thread = Thread.currentThread();
        ClassLoader before = thread.getContextClassLoader();
        try (URLClassLoader loader = new URLClassLoader(urls, ClassLoader.getPlatformClassLoader())) {
            // Hadoop's Configuration and file systems load classes by name through this loader
            thread.setContextClassLoader(loader);
            for (String name : starts) {
                Class.forName(name, true, loader);
            }
            Object statistics = loader.loadClass("org.apache.samza.container.host.DefaultSystemStatisticsGetter")
                    .getConstructor()
                    .newInstance();
            Object cpu =
                    statistics.getClass().getMethod("getProcessCPUStatistics").invoke(statistics);
            if (cpu == null) {
                return Optional.of("the container's CPU statistics are null");
            }
            Object conf = loader.loadClass("org.apache.hadoop.yarn.conf.YarnConfiguration")
                    .getConstructor()
                    .newInstance();
            Class<?> configuration = loader.loadClass("org.apache.hadoop.conf.Configuration");
            loader.loadClass("org.apache.hadoop.security.UserGroupInformation")
                    .getMethod("getCurrentUser")
                    .invoke(null);
            Class<?> yarnClient = loader.loadClass("org.apache.hadoop.yarn.client.api.YarnClient");
            Object client = yarnClient.getMethod("createYarnClient").invoke(null);
            client.getClass().getMethod("init", configuration).invoke(client, conf);
            // a client only: nothing listens on port 9, and creating it does not connect
            Object fs = loader.loadClass("org.apache.hadoop.fs.FileSystem")
                    .getMethod("newInstance", URI.class, configuration)
                    .invoke(null, URI.create("hdfs://127.0.0.1:9/"), conf);
            fs.getClass().getMethod("close").invoke(fs);
            return Optional.empty();
        } catch (ReflectiveOperationException | LinkageError e) {
            Throwable cause = e;
            while (cause.getCause() != null) {
                cause = cause.getCause();
            }
            return Optional.of(cause.toString());
        } finally {
            thread.setContextClassLoader(before);
        }
    }

    /** The package's lib/*.jar, written to a folder of their own the first time. */
    private static synchronized List<Path> lib(String name) throws IOException {
        List<Path> known = LIBS.get(name);
        if (known != null) {
            return known;
        }
        Path dir = Files.createDirectories(unpacked.resolve(name));
        List<Path> jars = new ArrayList<>();
        TarGz.forEachEntry(DIST.resolve(name), (entry, body) -> {
            if (entry.startsWith("lib/") && entry.endsWith(".jar")) {
                Path jar = dir.resolve(entry.substring("lib/".length()));
                Files.write(jar, body);
                jars.add(jar);
            }
        });
        LIBS.put(name, jars);
        return jars;
    }
}
