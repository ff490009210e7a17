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
package io.nearline.localcluster.kafka;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;

/**
 * What a secured embedded broker takes from clients: one listener of {@code protocol} (SSL,
 * SASL_PLAINTEXT or SASL_SSL) for clients and for the broker itself; with SASL, users by name and
 * password (PLAIN, and SCRAM-SHA-256/512 for users given SCRAM credentials), {@value #BROKER_USER}
 * among them as the broker's own; with TLS, the broker's key and certificate and the certificate it
 * trusts. A broker process reads it from a file ({@link #read}).
 */
public record BrokerSecurity(
        String protocol,
        Path keystore,
        String keystorePassword,
        Path truststore,
        String truststorePassword,
        Map<String, String> users) {

    /** The user the broker connects to itself as, and the tools' admin clients. */
    public static final String BROKER_USER = "broker";

    public BrokerSecurity {
        if (protocol == null
                || !Map.of("SSL", 1, "SASL_PLAINTEXT", 1, "SASL_SSL", 1).containsKey(protocol)) {
            throw new IllegalArgumentException(
                    "a secured broker's protocol is SSL, SASL_PLAINTEXT or SASL_SSL, not " + protocol);
        }
        if (sasl(protocol) && !users.containsKey(BROKER_USER)) {
            throw new IllegalArgumentException(protocol + " needs the broker's own user, " + BROKER_USER);
        }
        users = new LinkedHashMap<>(users);
    }

    private static boolean sasl(String protocol) {
        return protocol.startsWith("SASL_");
    }

    public boolean tls() {
        return protocol.endsWith("SSL");
    }

    /** The broker's settings: its client listener secured, inter-broker traffic on it too. */
    Map<String, String> brokerProperties() {
        String listener = "listener.name." + protocol.toLowerCase(Locale.ROOT) + ".";
        Map<String, String> p = new LinkedHashMap<>();
        if (sasl(protocol)) {
            StringBuilder plain = new StringBuilder(
                    "org.apache.kafka.common.security.plain.PlainLoginModule required" + jaasCredentials());
            users.forEach((name, password) -> plain.append(" user_")
                    .append(name)
                    .append("=\"")
                    .append(password)
                    .append('"'));
            p.put("sasl.enabled.mechanisms", "PLAIN,SCRAM-SHA-256,SCRAM-SHA-512");
            p.put("sasl.mechanism.inter.broker.protocol", "PLAIN");
            p.put(listener + "plain.sasl.jaas.config", plain + ";");
            for (String scram : new String[] {"scram-sha-256", "scram-sha-512"}) {
                p.put(
                        listener + scram + ".sasl.jaas.config",
                        "org.apache.kafka.common.security.scram.ScramLoginModule required;");
            }
        }
        if (tls()) {
            p.put("ssl.keystore.location", keystore.toString());
            p.put("ssl.keystore.type", "PKCS12");
            p.put("ssl.keystore.password", keystorePassword);
            p.put("ssl.key.password", keystorePassword);
            p.put("ssl.truststore.location", truststore.toString());
            p.put("ssl.truststore.type", "PKCS12");
            p.put("ssl.truststore.password", truststorePassword);
        }
        return p;
    }

    /** The properties of a client that connects as the broker's own user. */
    public Map<String, Object> clientProperties() {
        Map<String, Object> p = new HashMap<>();
        p.put("security.protocol", protocol);
        if (sasl(protocol)) {
            p.put("sasl.mechanism", "PLAIN");
            p.put(
                    "sasl.jaas.config",
                    "org.apache.kafka.common.security.plain.PlainLoginModule required" + jaasCredentials() + ";");
        }
        if (tls()) {
            p.put("ssl.truststore.location", truststore.toString());
            p.put("ssl.truststore.type", "PKCS12");
            p.put("ssl.truststore.password", truststorePassword);
        }
        return p;
    }

    private String jaasCredentials() {
        return " username=\"" + BROKER_USER + "\" password=\"" + users.get(BROKER_USER) + "\"";
    }

    /**
     * Reads the file a broker process is started with ({@code --security FILE}), a properties file:
     * {@code protocol}; with TLS {@code keystore}, {@code keystore.password}, {@code truststore},
     * {@code truststore.password} (PKCS12 files); with SASL {@code user.NAME=PASSWORD}, one per user,
     * {@value #BROKER_USER} among them.
     */
    public static BrokerSecurity read(Path file) {
        Properties p = new Properties();
        try (Reader r = Files.newBufferedReader(file)) {
            p.load(r);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Map<String, String> users = new LinkedHashMap<>();
        p.stringPropertyNames().stream()
                .filter(k -> k.startsWith("user."))
                .forEach(k -> users.put(k.substring(5), p.getProperty(k)));
        String keystore = p.getProperty("keystore");
        String truststore = p.getProperty("truststore");
        return new BrokerSecurity(
                p.getProperty("protocol"),
                keystore == null ? null : Path.of(keystore),
                p.getProperty("keystore.password"),
                truststore == null ? null : Path.of(truststore),
                p.getProperty("truststore.password"),
                users);
    }
}
