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

import io.nearline.common.config.Check;
import io.nearline.common.config.Config;
import io.nearline.common.config.ConfigDef;
import io.nearline.common.config.ConfigException;
import io.nearline.common.config.ConfigKey;
import io.nearline.common.config.Secret;
import io.nearline.common.config.ValueType;
import io.nearline.common.store.HealthSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/** Connection and behaviour settings of the Couchbase cache store. */
public record CouchbaseStoreSettings(
        String connectionString,
        String username,
        Secret password,
        String bucket,
        String scope,
        String collection,
        String tlsTrustCertificate,
        boolean tlsVerifyHostname,
        Duration kvTimeout,
        Duration connectTimeout,
        HealthSettings health) {

    public static final ConfigKey<String> CONNECTION_STRING = ConfigKey.of(
                    "couchbase.connection-string",
                    ValueType.STRING,
                    "couchbase://127.0.0.1",
                    "Couchbase connection string: seed nodes, optionally with the KV port (couchbase://host:11210).")
            // couchbase2:// (the SDK's gRPC transport) is left out of the job jar to keep it small
            .checked(new Check<>(
                    "must be couchbase://... or couchbases://... (couchbase2:// is not supported)",
                    v -> !v.isBlank() && !v.trim().startsWith("couchbase2://")));
    public static final ConfigKey<String> USERNAME = ConfigKey.required(
                    "couchbase.username", ValueType.STRING, "RBAC user with read and write access to the bucket.")
            .checked(Check.notBlank());
    public static final ConfigKey<Secret> PASSWORD = ConfigKey.of(
            "couchbase.password",
            ValueType.SECRET,
            Secret.NONE,
            "Password of that user, by reference: env:VARIABLE or file:/path (read where the job runs; never printed).");
    public static final ConfigKey<String> BUCKET = ConfigKey.required(
                    "couchbase.bucket", ValueType.STRING, "Bucket holding the cache.")
            .checked(Check.notBlank());
    public static final ConfigKey<String> SCOPE = ConfigKey.of(
                    "couchbase.scope", ValueType.STRING, "_default", "Scope of the cache collection.")
            .checked(Check.notBlank());
    public static final ConfigKey<String> COLLECTION = ConfigKey.of(
                    "couchbase.collection", ValueType.STRING, "_default", "Collection holding the cache records.")
            .checked(Check.notBlank());
    public static final ConfigKey<String> TLS_TRUST_CERTIFICATE = ConfigKey.of(
            "couchbase.tls.trust-certificate",
            ValueType.STRING,
            "",
            "With couchbases:// (TLS): a PEM file of the certificate(s) to trust, such as the cluster's CA, read "
                    + "where the job runs (empty: the JVM's trust store).");
    public static final ConfigKey<Boolean> TLS_VERIFY_HOSTNAME = ConfigKey.of(
            "couchbase.tls.verify-hostname",
            ValueType.BOOLEAN,
            true,
            "With couchbases:// (TLS): check that the server's certificate names the host connected to.");
    public static final ConfigKey<Duration> KV_TIMEOUT = ConfigKey.of(
                    "couchbase.kv-timeout",
                    ValueType.DURATION,
                    Duration.ofMillis(2500),
                    "Timeout of one key-value operation; a timeout is retried by the writer.")
            .checked(Check.positiveDuration());
    public static final ConfigKey<Duration> CONNECT_TIMEOUT = ConfigKey.of(
                    "couchbase.connect-timeout",
                    ValueType.DURATION,
                    Duration.ofSeconds(10),
                    "How long opening the bucket may take before start fails.")
            .checked(Check.positiveDuration());
    public static final HealthSettings.Keys HEALTH = HealthSettings.keys("couchbase");

    public static final ConfigDef DEF = ConfigDef.of(
            "Couchbase store",
            CONNECTION_STRING,
            USERNAME,
            PASSWORD,
            BUCKET,
            SCOPE,
            COLLECTION,
            TLS_TRUST_CERTIFICATE,
            TLS_VERIFY_HOSTNAME,
            KV_TIMEOUT,
            CONNECT_TIMEOUT,
            HEALTH.window(),
            HEALTH.minSamples(),
            HEALTH.maxErrorRate());

    public static CouchbaseStoreSettings from(Config config) {
        config.validate(DEF);
        String certificate = config.get(TLS_TRUST_CERTIFICATE).trim();
        if (!certificate.isEmpty() && !config.get(CONNECTION_STRING).trim().startsWith("couchbases://")) {
            throw new ConfigException(TLS_TRUST_CERTIFICATE.name() + " is set but " + CONNECTION_STRING.name()
                    + " does not use TLS: write it as couchbases://..., or leave the certificate out");
        }
        if (!certificate.isEmpty() && !Files.isReadable(Path.of(certificate))) {
            throw new ConfigException(TLS_TRUST_CERTIFICATE.name() + "=" + certificate
                    + ": no readable file there; name the PEM file of the certificate to trust");
        }
        return new CouchbaseStoreSettings(
                config.get(CONNECTION_STRING),
                config.get(USERNAME),
                config.get(PASSWORD),
                config.get(BUCKET),
                config.get(SCOPE),
                config.get(COLLECTION),
                certificate,
                config.get(TLS_VERIFY_HOSTNAME),
                config.get(KV_TIMEOUT),
                config.get(CONNECT_TIMEOUT),
                HEALTH.from(config));
    }

    /** Whether the connection string asks for TLS. */
    public boolean tls() {
        return connectionString.trim().startsWith("couchbases://");
    }

    @Override
    public String toString() { // never log the password
        return "CouchbaseStoreSettings[" + connectionString + ", user " + username + ", " + bucket + "." + scope + "."
                + collection + "]";
    }
}
