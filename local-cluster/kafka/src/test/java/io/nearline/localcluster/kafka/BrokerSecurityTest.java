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

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The file a secured broker process is started with, and what the broker and its own clients make of
 * it: each user a PLAIN login (SCRAM for those given credentials), the broker's own user among them, the
 * TLS stores where the protocol has TLS and nowhere else. A real broker takes these settings in
 * SecuredKafkaIT (local-cluster/cluster).
 */
class BrokerSecurityTest {

    @TempDir
    Path dir;

    private BrokerSecurity read(String text) throws Exception {
        return BrokerSecurity.read(Files.writeString(dir.resolve("security.properties"), text));
    }

    @Test
    void saslOverTlsReadsUsersAndStoresAndTheBrokerLogsInAsItself() throws Exception {
        BrokerSecurity s = read("protocol=SASL_SSL\n"
                + "keystore=/c/broker.p12\nkeystore.password=kp\n"
                + "truststore=/c/trust.p12\ntruststore.password=tp\n"
                + "user.broker=b-secret\nuser.nearline=n-secret\n");
        assertTrue(s.tls());
        assertEquals(Map.of("broker", "b-secret", "nearline", "n-secret"), s.users());

        Map<String, String> broker = s.brokerProperties();
        String plain = broker.get("listener.name.sasl_ssl.plain.sasl.jaas.config");
        assertTrue(plain.contains("username=\"broker\" password=\"b-secret\""), plain);
        assertTrue(plain.contains("user_nearline=\"n-secret\"") && plain.contains("user_broker=\"b-secret\""), plain);
        assertTrue(plain.endsWith(";"), plain);
        assertEquals("PLAIN", broker.get("sasl.mechanism.inter.broker.protocol"));
        assertEquals("PLAIN,SCRAM-SHA-256,SCRAM-SHA-512", broker.get("sasl.enabled.mechanisms"));
        assertTrue(broker.get("listener.name.sasl_ssl.scram-sha-512.sasl.jaas.config")
                .contains("ScramLoginModule"));
        assertEquals("/c/broker.p12", broker.get("ssl.keystore.location"));
        assertEquals("kp", broker.get("ssl.key.password"));
        assertEquals("/c/trust.p12", broker.get("ssl.truststore.location"));

        Map<String, Object> client = s.clientProperties();
        assertEquals("SASL_SSL", client.get("security.protocol"));
        assertEquals("PLAIN", client.get("sasl.mechanism"));
        assertTrue(client.get("sasl.jaas.config").toString().contains("username=\"broker\""));
        assertEquals("tp", client.get("ssl.truststore.password"));
        assertFalse(client.containsKey("ssl.keystore.location"), "the client proves itself by password");
    }

    @Test
    void tlsAloneHasNoLogins() throws Exception {
        BrokerSecurity s = read("protocol=SSL\nkeystore=/k.p12\nkeystore.password=kp\n"
                + "truststore=/t.p12\ntruststore.password=tp\n");
        assertTrue(s.tls());
        assertTrue(
                s.brokerProperties().keySet().stream().noneMatch(k -> k.contains("sasl")),
                s.brokerProperties().toString());
        assertNull(s.clientProperties().get("sasl.mechanism"));
        assertEquals("/t.p12", s.clientProperties().get("ssl.truststore.location"));
    }

    @Test
    void saslInPlainTextHasNoStores() throws Exception {
        BrokerSecurity s = read("protocol=SASL_PLAINTEXT\nuser.broker=b\n");
        assertFalse(s.tls());
        assertTrue(s.brokerProperties().keySet().stream().noneMatch(k -> k.startsWith("ssl.")));
        assertTrue(s.brokerProperties().containsKey("listener.name.sasl_plaintext.plain.sasl.jaas.config"));
    }

    @Test
    void aFileThatCannotSecureABrokerIsRefusedSayingWhy() {
        IllegalArgumentException plaintext =
                assertThrows(IllegalArgumentException.class, () -> read("protocol=PLAINTEXT\n"));
        assertTrue(plaintext.getMessage().contains("SSL, SASL_PLAINTEXT or SASL_SSL, not PLAINTEXT"));
        assertThrows(IllegalArgumentException.class, () -> read("keystore=/k.p12\n"), "no protocol at all");
        IllegalArgumentException noBroker =
                assertThrows(IllegalArgumentException.class, () -> read("protocol=SASL_SSL\nuser.nearline=n\n"));
        assertTrue(noBroker.getMessage().contains("the broker's own user, broker"), noBroker.getMessage());
    }
}
