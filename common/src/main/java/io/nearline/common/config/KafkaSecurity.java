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
package io.nearline.common.config;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * How a job's and the tools' Kafka clients prove who they are and whom they talk to: TLS, SASL or
 * both, the same keys for every job on both engines. Passwords are {@link Secret} references, read
 * where the client is made: on Flink in each task (by a Kafka config provider), on Samza in each
 * container and in the client that submits it. A truststore or keystore is a path on that machine.
 */
public record KafkaSecurity(
        Protocol protocol,
        Mechanism mechanism,
        String username,
        Secret password,
        String truststore,
        Secret truststorePassword,
        String keystore,
        Secret keystorePassword) {

    /** Kafka's {@code security.protocol}. */
    public enum Protocol {
        PLAINTEXT,
        SSL,
        SASL_PLAINTEXT,
        SASL_SSL;

        public boolean sasl() {
            return this == SASL_PLAINTEXT || this == SASL_SSL;
        }

        public boolean tls() {
            return this == SSL || this == SASL_SSL;
        }
    }

    /** Kafka's {@code sasl.mechanism}: the user and password kinds a Kafka cluster checks itself. */
    public enum Mechanism {
        PLAIN("org.apache.kafka.common.security.plain.PlainLoginModule"),
        SCRAM_SHA_256("org.apache.kafka.common.security.scram.ScramLoginModule"),
        SCRAM_SHA_512("org.apache.kafka.common.security.scram.ScramLoginModule");

        private final String loginModule;

        Mechanism(String loginModule) {
            this.loginModule = loginModule;
        }

        /** The name Kafka spells it with: SCRAM-SHA-512. */
        public String kafkaName() {
            return name().replace('_', '-');
        }
    }

    public static final ConfigKey<Protocol> PROTOCOL = ConfigKey.of(
            "kafka.security.protocol",
            ValueType.enumOf(Protocol.class),
            Protocol.PLAINTEXT,
            "How the job's Kafka clients connect: plaintext, ssl (TLS), sasl-plaintext (a user and password, "
                    + "unencrypted) or sasl-ssl (both). Kafka's security.protocol.");
    public static final ConfigKey<Mechanism> MECHANISM = ConfigKey.of(
            "kafka.sasl.mechanism",
            ValueType.enumOf(Mechanism.class),
            Mechanism.PLAIN,
            "With sasl-*: plain, scram-sha-256 or scram-sha-512. Kafka's sasl.mechanism.");
    public static final ConfigKey<String> USERNAME =
            ConfigKey.of("kafka.sasl.username", ValueType.STRING, "", "With sasl-*: the Kafka user.");
    public static final ConfigKey<Secret> PASSWORD = ConfigKey.of(
            "kafka.sasl.password",
            ValueType.SECRET,
            Secret.NONE,
            "With sasl-*: that user's password, by reference (env:VARIABLE or file:/path), read where the client "
                    + "is made.");
    public static final ConfigKey<String> TRUSTSTORE = ConfigKey.of(
            "kafka.ssl.truststore",
            ValueType.STRING,
            "",
            "With ssl or sasl-ssl: a PKCS12 (.p12) or JKS file of the certificates to trust, such as the brokers' CA, "
                    + "at this path on every machine a client runs on (empty: the JVM's trust store).");
    public static final ConfigKey<Secret> TRUSTSTORE_PASSWORD = ConfigKey.of(
            "kafka.ssl.truststore-password", ValueType.SECRET, Secret.NONE, "The truststore's password, by reference.");
    public static final ConfigKey<String> KEYSTORE = ConfigKey.of(
            "kafka.ssl.keystore",
            ValueType.STRING,
            "",
            "With ssl or sasl-ssl, where the brokers ask for client certificates: a PKCS12 or JKS file holding the "
                    + "client's key and certificate.");
    public static final ConfigKey<Secret> KEYSTORE_PASSWORD = ConfigKey.of(
            "kafka.ssl.keystore-password",
            ValueType.SECRET,
            Secret.NONE,
            "The keystore's password (and its key's), by reference.");

    /** The name {@link #clientPropertiesByReference} gives its config provider. */
    public static final String PROVIDER = "nearline";

    public static final ConfigDef DEF = ConfigDef.of(
                    "Kafka client security",
                    PROTOCOL,
                    MECHANISM,
                    USERNAME,
                    PASSWORD,
                    TRUSTSTORE,
                    TRUSTSTORE_PASSWORD,
                    KEYSTORE,
                    KEYSTORE_PASSWORD)
            .withInvariant(
                    c -> !c.get(PROTOCOL).sasl()
                            || !(c.get(USERNAME).isBlank() || c.get(PASSWORD).equals(Secret.NONE)),
                    "kafka.security.protocol=sasl-* needs kafka.sasl.username and kafka.sasl.password (a reference: "
                            + "env:VARIABLE or file:/path).")
            .withInvariant(
                    c -> c.get(PROTOCOL).sasl()
                            || (c.get(USERNAME).isBlank() && c.get(PASSWORD).equals(Secret.NONE)),
                    "kafka.sasl.username or kafka.sasl.password is set but kafka.security.protocol is not sasl-*: "
                            + "set it to sasl-ssl (or sasl-plaintext), or leave the user out.")
            .withInvariant(
                    c -> c.get(PROTOCOL).tls()
                            || (c.get(TRUSTSTORE).isBlank() && c.get(KEYSTORE).isBlank()),
                    "kafka.ssl.truststore or kafka.ssl.keystore is set but kafka.security.protocol is not ssl or "
                            + "sasl-ssl: set it to one of them, or leave the stores out.");

    /** No security: what a broker on loopback or a private network takes. */
    public static final KafkaSecurity NONE =
            new KafkaSecurity(Protocol.PLAINTEXT, Mechanism.PLAIN, "", Secret.NONE, "", Secret.NONE, "", Secret.NONE);

    public static KafkaSecurity from(Config config) {
        config.validate(DEF);
        return new KafkaSecurity(
                config.get(PROTOCOL),
                config.get(MECHANISM),
                config.get(USERNAME).strip(),
                config.get(PASSWORD),
                config.get(TRUSTSTORE).strip(),
                config.get(TRUSTSTORE_PASSWORD),
                config.get(KEYSTORE).strip(),
                config.get(KEYSTORE_PASSWORD));
    }

    /**
     * The Kafka client properties that carry this security, secrets read now; empty for plaintext. The
     * same for consumers, producers and admin clients, Kafka 2.4 to 4.x.
     */
    public Map<String, String> clientProperties() {
        return properties(Secret::reveal, secret -> jaasQuoted(secret.reveal()));
    }

    /**
     * The same properties with every secret left as a Kafka config variable ({@code
     * ${nearline:secret:file:/path}}) that {@link SecretConfigProvider} resolves inside each client as
     * it is made: for the jobs' clients, made on their machines from settings an engine keeps and logs,
     * which then carry references only.
     */
    public Map<String, String> clientPropertiesByReference() {
        Map<String, String> p = properties(
                secret -> "${" + PROVIDER + ":secret:" + secret.reference() + "}",
                secret -> "${" + PROVIDER + ":jaas:" + secret.reference() + "}");
        if (!p.isEmpty()) {
            p.put("config.providers", PROVIDER);
            p.put("config.providers." + PROVIDER + ".class", SecretConfigProvider.class.getName());
        }
        return p;
    }

    private Map<String, String> properties(Function<Secret, String> value, Function<Secret, String> jaasValue) {
        Map<String, String> p = new LinkedHashMap<>();
        if (protocol == Protocol.PLAINTEXT) {
            return p;
        }
        p.put("security.protocol", protocol.name());
        if (protocol.sasl()) {
            p.put("sasl.mechanism", mechanism.kafkaName());
            p.put(
                    "sasl.jaas.config",
                    mechanism.loginModule + " required username=\"" + jaasQuoted(username) + "\" password=\""
                            + jaasValue.apply(password) + "\";");
        }
        if (!truststore.isEmpty()) {
            p.put("ssl.truststore.location", truststore);
            p.put("ssl.truststore.type", storeType(truststore));
            if (!truststorePassword.equals(Secret.NONE)) {
                p.put("ssl.truststore.password", value.apply(truststorePassword));
            }
        }
        if (!keystore.isEmpty()) {
            p.put("ssl.keystore.location", keystore);
            p.put("ssl.keystore.type", storeType(keystore));
            if (!keystorePassword.equals(Secret.NONE)) {
                String password = value.apply(keystorePassword); // the key's too: read once
                p.put("ssl.keystore.password", password);
                p.put("ssl.key.password", password);
            }
        }
        return p;
    }

    /** This security as Nearline settings (references, never secrets), to hand on to another command. */
    public Map<String, String> settings() {
        Map<String, String> s = new LinkedHashMap<>();
        if (protocol == Protocol.PLAINTEXT) {
            return s;
        }
        s.put(PROTOCOL.name(), PROTOCOL.type().format(protocol));
        if (protocol.sasl()) {
            s.put(MECHANISM.name(), MECHANISM.type().format(mechanism));
            s.put(USERNAME.name(), username);
            s.put(PASSWORD.name(), password.reference());
        }
        putIfSet(s, TRUSTSTORE.name(), truststore);
        putIfSet(s, TRUSTSTORE_PASSWORD.name(), truststorePassword.reference());
        putIfSet(s, KEYSTORE.name(), keystore);
        putIfSet(s, KEYSTORE_PASSWORD.name(), keystorePassword.reference());
        return s;
    }

    /** For status lines: the protocol and the user, no secret. */
    public String describe() {
        String p = PROTOCOL.type().format(protocol);
        return protocol.sasl() ? p + " (" + MECHANISM.type().format(mechanism) + ", user " + username + ")" : p;
    }

    private static void putIfSet(Map<String, String> s, String key, String value) {
        if (!value.isEmpty()) {
            s.put(key, value);
        }
    }

    // a JAAS option value is a quoted string: a quote or backslash in it is escaped
    /** {@code value} between the double quotes of a JAAS option. */
    public static String jaasQuoted(String value) {
        return value.replace("\\", "\\\\").replace("\"", "\\\"");
    }

    // Kafka reads JKS unless told; .p12/.pfx files are PKCS12
    private static String storeType(String path) {
        String p = path.toLowerCase(Locale.ROOT);
        return p.endsWith(".p12") || p.endsWith(".pfx") ? "PKCS12" : "JKS";
    }
}
