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

import io.nearline.common.config.Check;
import io.nearline.common.config.Config;
import io.nearline.common.config.ConfigDef;
import io.nearline.common.config.ConfigException;
import io.nearline.common.config.ConfigKey;
import io.nearline.common.config.Secret;
import io.nearline.common.config.ValueType;
import io.nearline.common.store.HealthSettings;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** Connection and behaviour settings of the Redis cache store. */
public record RedisStoreSettings(
        List<URI> servers,
        boolean cluster,
        String username,
        Secret password,
        String tlsTrustCertificate,
        boolean tlsVerifyHostname,
        Duration commandTimeout,
        Duration connectTimeout,
        HealthSettings health) {

    public static final ConfigKey<String> SERVERS = ConfigKey.of(
                    "redis.servers",
                    ValueType.STRING,
                    "redis://127.0.0.1:6379",
                    "Redis server, or a Redis Cluster's seed nodes, comma-separated: redis://host:port "
                            + "(rediss://host:port for TLS).")
            .checked(new Check<>(
                    "must be redis://host:port or rediss://host:port, comma-separated", v -> parseServers(v) != null));
    public static final ConfigKey<Boolean> CLUSTER = ConfigKey.of(
            "redis.cluster",
            ValueType.BOOLEAN,
            false,
            "Whether the servers are a Redis Cluster (keys routed by slot) rather than one server.");
    public static final ConfigKey<String> USERNAME = ConfigKey.of(
                    "redis.username",
                    ValueType.STRING,
                    "default",
                    "ACL user: needs only FCALL, GET, SET, GETRANGE, EXISTS and FUNCTION LIST on the cache's keys (the "
                            + "library is loaded by an admin: docs/redis.md).")
            .checked(Check.notBlank());
    public static final ConfigKey<Secret> PASSWORD = ConfigKey.of(
            "redis.password",
            ValueType.SECRET,
            Secret.NONE,
            "Password of that user, by reference: env:VARIABLE or file:/path (read where the job runs; never "
                    + "printed). Empty: no authentication.");
    public static final ConfigKey<String> TLS_TRUST_CERTIFICATE = ConfigKey.of(
            "redis.tls.trust-certificate",
            ValueType.STRING,
            "",
            "With rediss:// (TLS): a PEM file of the certificate(s) to trust, read where the job runs "
                    + "(empty: the JVM's trust store).");
    public static final ConfigKey<Boolean> TLS_VERIFY_HOSTNAME = ConfigKey.of(
            "redis.tls.verify-hostname",
            ValueType.BOOLEAN,
            true,
            "With rediss:// (TLS): check that the server's certificate names the host connected to.");
    public static final ConfigKey<Duration> COMMAND_TIMEOUT = ConfigKey.of(
                    "redis.command-timeout",
                    ValueType.DURATION,
                    Duration.ofMillis(2500),
                    "Timeout of one command; a timeout is retried by the writer.")
            .checked(Check.positiveDuration());
    public static final ConfigKey<Duration> CONNECT_TIMEOUT = ConfigKey.of(
                    "redis.connect-timeout",
                    ValueType.DURATION,
                    Duration.ofSeconds(10),
                    "How long connecting may take before start fails.")
            .checked(Check.positiveDuration());
    public static final HealthSettings.Keys HEALTH = HealthSettings.keys("redis");

    public static final ConfigDef DEF = ConfigDef.of(
            "Redis store",
            SERVERS,
            CLUSTER,
            USERNAME,
            PASSWORD,
            TLS_TRUST_CERTIFICATE,
            TLS_VERIFY_HOSTNAME,
            COMMAND_TIMEOUT,
            CONNECT_TIMEOUT,
            HEALTH.window(),
            HEALTH.minSamples(),
            HEALTH.maxErrorRate());

    public static RedisStoreSettings from(Config config) {
        config.validate(DEF);
        List<URI> servers = parseServers(config.get(SERVERS));
        boolean tls = servers.get(0).getScheme().equals("rediss");
        if (servers.stream().anyMatch(s -> s.getScheme().equals("rediss") != tls)) {
            throw new ConfigException(
                    SERVERS.name() + " mixes redis:// and rediss://: write every server with the " + "same scheme");
        }
        if (servers.size() > 1 && !config.get(CLUSTER)) {
            throw new ConfigException(SERVERS.name() + " names " + servers.size() + " servers: set " + CLUSTER.name()
                    + "=true for a Redis Cluster, or name one server");
        }
        String certificate = config.get(TLS_TRUST_CERTIFICATE).trim();
        if (!certificate.isEmpty() && !tls) {
            throw new ConfigException(TLS_TRUST_CERTIFICATE.name() + " is set but " + SERVERS.name()
                    + " does not use TLS: write it as rediss://..., or leave the certificate out");
        }
        if (!certificate.isEmpty() && !Files.isReadable(Path.of(certificate))) {
            throw new ConfigException(TLS_TRUST_CERTIFICATE.name() + "=" + certificate
                    + ": no readable file there; name the PEM file of the certificate to trust");
        }
        return new RedisStoreSettings(
                servers,
                config.get(CLUSTER),
                config.get(USERNAME),
                config.get(PASSWORD),
                certificate,
                config.get(TLS_VERIFY_HOSTNAME),
                config.get(COMMAND_TIMEOUT),
                config.get(CONNECT_TIMEOUT),
                HEALTH.from(config));
    }

    /** The servers of {@code text}, or null where one is not redis://host:port or rediss://host:port. */
    static List<URI> parseServers(String text) {
        List<URI> out = new ArrayList<>();
        for (String part : text.split(",")) {
            try {
                URI uri = new URI(part.trim());
                boolean known = "redis".equals(uri.getScheme()) || "rediss".equals(uri.getScheme());
                if (!known || uri.getHost() == null || uri.getPort() < 1 || uri.getUserInfo() != null) {
                    return null; // a password in the URI would be printed: it goes in redis.password
                }
                out.add(uri);
            } catch (java.net.URISyntaxException e) {
                return null;
            }
        }
        return out.isEmpty() ? null : out;
    }

    public boolean tls() {
        return servers.get(0).getScheme().equals("rediss");
    }

    @Override
    public String toString() { // never log the password
        return "RedisStoreSettings[" + servers + (cluster ? " cluster" : "") + ", user " + username + "]";
    }
}
