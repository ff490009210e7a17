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
package io.nearline.cacheupdater.storeredis.testkit;

import io.nearline.cacheupdater.storeredis.RedisCacheStore;
import io.nearline.cacheupdater.storeredis.RedisStoreSettings;
import io.nearline.common.config.Config;
import io.nearline.common.testkit.LocalProcesses;
import io.nearline.common.testkit.RedisServerProcess;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * A Redis Cluster of private {@link RedisServerProcess}es on 127.0.0.1, primaries only, the 16,384
 * slots spread over them by {@code redis-cli --cluster create}. Every node has the same ACL users and
 * passwords; the admin loads the store's functions on every primary once the cluster serves.
 */
public final class RedisClusterProcess implements AutoCloseable {

    private final List<RedisServerProcess> nodes;

    private RedisClusterProcess(List<RedisServerProcess> nodes) {
        this.nodes = nodes;
    }

    /** Starts {@code size} nodes under {@code dir}, joins them into one cluster and waits until it serves every slot. */
    public static RedisClusterProcess start(Path dir, int size) throws IOException {
        List<RedisServerProcess> nodes = new ArrayList<>();
        RedisClusterProcess cluster = new RedisClusterProcess(nodes);
        try {
            for (int i = 0; i < size; i++) {
                List<String> config = new ArrayList<>(List.of(
                        "cluster-enabled yes",
                        "cluster-config-file nodes.conf",
                        // the bus port is chosen too: port + 10000 may be taken or beyond 65535
                        "cluster-port " + LocalProcesses.freePort(),
                        "cluster-node-timeout 3000"));
                Path nodeDir = dir.resolve("node-" + i);
                if (i > 0) { // one password per user for the whole cluster, as clients log in once
                    Files.createDirectories(nodeDir);
                    for (String file :
                            List.of(RedisServerProcess.PASSWORD_FILE, RedisServerProcess.ADMIN_PASSWORD_FILE)) {
                        Files.copy(dir.resolve("node-0").resolve(file), nodeDir.resolve(file));
                    }
                }
                nodes.add(RedisServerProcess.start(nodeDir, RedisStoreSetup.STORE, config, false));
            }
            List<String> create = new ArrayList<>(List.of("--cluster", "create"));
            nodes.forEach(n -> create.add("127.0.0.1:" + n.port()));
            create.addAll(List.of("--cluster-replicas", "0", "--cluster-yes"));
            nodes.get(0).cli(create.toArray(String[]::new));
            cluster.awaitServing(Duration.ofSeconds(60));
            RedisCacheStore.loadFunctions(RedisStoreSettings.from(Config.of(cluster.adminSettings())));
            return cluster;
        } catch (IOException | RuntimeException e) {
            cluster.close();
            throw e;
        }
    }

    private void awaitServing(Duration within) throws IOException {
        long deadline = System.nanoTime() + within.toNanos();
        while (true) {
            boolean ok = true;
            for (RedisServerProcess node : nodes) {
                ok &= node.cli("CLUSTER", "INFO").contains("cluster_state:ok");
            }
            if (ok) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the Redis Cluster did not serve every slot within " + within);
            }
            LocalProcesses.sleep(100);
        }
    }

    public List<RedisServerProcess> nodes() {
        return nodes;
    }

    /** The job settings that reach this cluster: every node as a seed. */
    public Map<String, String> settings() {
        return everyNode(nodes.get(0).settings());
    }

    /** As {@link #settings}, as the admin. */
    public Map<String, String> adminSettings() {
        return everyNode(nodes.get(0).adminSettings());
    }

    /** One node's settings, with every node as a seed of the cluster. */
    private Map<String, String> everyNode(Map<String, String> node) {
        Map<String, String> settings = new LinkedHashMap<>(node);
        settings.put(
                "redis.servers", nodes.stream().map(RedisServerProcess::uri).collect(Collectors.joining(",")));
        settings.put("redis.cluster", "true");
        return settings;
    }

    @Override
    public void close() {
        nodes.forEach(RedisServerProcess::close);
    }
}
