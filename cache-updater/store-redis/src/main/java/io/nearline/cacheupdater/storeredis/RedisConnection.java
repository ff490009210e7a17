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
package io.nearline.cacheupdater.storeredis;

import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.SslOptions;
import io.lettuce.core.SslVerifyMode;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.ClusterClientOptions;
import io.lettuce.core.cluster.ClusterTopologyRefreshOptions;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.lettuce.core.codec.ByteArrayCodec;
import java.io.File;
import java.net.URI;
import java.time.Duration;
import java.util.List;

/**
 * The store's connection to Redis through Lettuce: one server, or a Redis Cluster whose slot map is
 * followed; the user's login and TLS as the settings give them, every command timed out, and commands
 * refused at once while the connection is down (the writer retries) rather than queued.
 */
record RedisConnection(
        AbstractRedisClient client,
        StatefulConnection<byte[], byte[]> connection,
        RedisClusterAsyncCommands<byte[], byte[]> commands) {

    /** Connects and logs in; on failure nothing is left open. */
    static RedisConnection open(RedisStoreSettings settings) {
        List<RedisURI> uris =
                settings.servers().stream().map(s -> uri(settings, s)).toList();
        AbstractRedisClient client = null;
        try {
            if (settings.cluster()) {
                RedisClusterClient cluster = RedisClusterClient.create(uris);
                client = cluster;
                cluster.setOptions(ClusterClientOptions.builder(clientOptions(settings))
                        .topologyRefreshOptions(ClusterTopologyRefreshOptions.builder()
                                // MOVED and ASK are followed per command; the slot map is re-read now and then besides
                                .enablePeriodicRefresh(Duration.ofSeconds(10))
                                .build())
                        .build());
                StatefulRedisClusterConnection<byte[], byte[]> c = cluster.connect(ByteArrayCodec.INSTANCE);
                return new RedisConnection(cluster, c, c.async());
            }
            RedisClient single = RedisClient.create();
            client = single;
            single.setOptions(clientOptions(settings));
            StatefulRedisConnection<byte[], byte[]> c = single.connect(ByteArrayCodec.INSTANCE, uris.get(0));
            return new RedisConnection(single, c, c.async());
        } catch (RuntimeException e) {
            if (client != null) {
                client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
            }
            throw e;
        }
    }

    void close() {
        connection.close();
        client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
    }

    private static RedisURI uri(RedisStoreSettings settings, URI server) {
        RedisURI.Builder b =
                RedisURI.Builder.redis(server.getHost(), server.getPort()).withTimeout(settings.commandTimeout());
        String password = settings.password().reveal();
        if (!password.isEmpty()) {
            b.withAuthentication(settings.username(), password);
        }
        if (settings.tls()) {
            b.withSsl(true).withVerifyPeer(settings.tlsVerifyHostname() ? SslVerifyMode.FULL : SslVerifyMode.CA);
        }
        return b.build();
    }

    private static ClientOptions clientOptions(RedisStoreSettings settings) {
        ClientOptions.Builder b = ClientOptions.builder()
                .autoReconnect(true)
                // while the connection is down, fail at once (the writer retries) instead of queueing unboundedly
                .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
                .timeoutOptions(TimeoutOptions.enabled(settings.commandTimeout()))
                .socketOptions(SocketOptions.builder()
                        .connectTimeout(settings.connectTimeout())
                        .build());
        if (!settings.tlsTrustCertificate().isEmpty()) {
            b.sslOptions(SslOptions.builder()
                    .trustManager(new File(settings.tlsTrustCertificate()))
                    .build());
        }
        return b.build();
    }
}
