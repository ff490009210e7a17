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
package io.nearline.localcluster.kit.faults;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nearline.cacheupdater.core.testkit.InMemoryCacheStore;
import io.nearline.common.cache.CacheKey;
import io.nearline.common.store.CacheStore;
import io.nearline.common.store.StoreException;
import io.nearline.common.store.StoreUnavailableException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;
import org.junit.jupiter.api.Test;

/**
 * The fault the demo, the drills and the checkers' negative controls inject: a store that goes down on
 * a switch (every call unavailable, counted), refuses some keys for good, or loses some keys' writes
 * while acknowledging them. What it passes through reaches the store behind it unchanged.
 */
class SwitchableStoreTest {

    private static final Duration TTL = Duration.ofHours(1);
    private static final byte[] VALUE = "v".getBytes(StandardCharsets.UTF_8);

    private final InMemoryCacheStore inner = new InMemoryCacheStore();
    private final AtomicBoolean down = new AtomicBoolean();
    private final LongAdder refused = new LongAdder();
    private final CacheStore store =
            new SwitchableStore(inner, down::get, refused, key -> key.value().startsWith("refused-"), key -> key.value()
                    .startsWith("lost-"));

    private static CacheKey key(String value) {
        return CacheKey.of(value);
    }

    @Test
    void upItPassesEveryCallThrough() {
        CacheStore.WriteResult inserted = store.insertIfAbsent(key("a"), VALUE, TTL);
        assertTrue(inserted.ok());
        assertArrayEquals(VALUE, store.get(key("a")).orElseThrow().value());
        byte[] next = "w".getBytes(StandardCharsets.UTF_8);
        assertTrue(
                store.replaceIfCasMatches(key("a"), next, inserted.cas(), TTL).ok());
        assertArrayEquals(next, inner.get(key("a")).orElseThrow().value(), "written to the store behind it");
        assertTrue(store.upsert(key("b"), VALUE, TTL).ok());
        assertTrue(store.health().healthy());
        assertEquals(0, refused.sum());
    }

    @Test
    void downEveryCallIsUnavailableAndCountedThenItComesBackWithNothingLost() {
        store.upsert(key("a"), VALUE, TTL);
        down.set(true);
        assertThrows(StoreUnavailableException.class, () -> store.get(key("a")));
        assertThrows(StoreUnavailableException.class, () -> store.insertIfAbsent(key("b"), VALUE, TTL));
        assertThrows(StoreUnavailableException.class, () -> store.replaceIfCasMatches(key("a"), VALUE, 1, TTL));
        assertThrows(StoreUnavailableException.class, () -> store.upsert(key("a"), VALUE, TTL));
        assertFalse(store.health().healthy());
        assertTrue(store.health().detail().contains("injected"), store.health().detail());
        assertEquals(4, refused.sum());
        assertFalse(inner.get(key("b")).isPresent(), "nothing reached the store while down");

        down.set(false);
        assertArrayEquals(VALUE, store.get(key("a")).orElseThrow().value());
        assertTrue(store.health().healthy());
    }

    @Test
    void aRefusedKeyFailsForGoodNotAsAnOutage() {
        StoreException e = assertThrows(StoreException.class, () -> store.upsert(key("refused-1"), VALUE, TTL));
        assertFalse(e instanceof StoreUnavailableException, "a retry would not help: not unavailable");
        assertThrows(StoreException.class, () -> store.insertIfAbsent(key("refused-1"), VALUE, TTL));
        assertThrows(StoreException.class, () -> store.replaceIfCasMatches(key("refused-1"), VALUE, 1, TTL));
        assertEquals(0, refused.sum(), "not counted as an outage's refusal");
        assertTrue(store.get(key("refused-1")).isEmpty(), "reads of it still work");
    }

    @Test
    void aLostKeysWritesAreAcknowledgedAndDropped() {
        assertTrue(store.upsert(key("lost-1"), VALUE, TTL).ok());
        assertTrue(store.insertIfAbsent(key("lost-2"), VALUE, TTL).ok());
        assertTrue(store.replaceIfCasMatches(key("lost-3"), VALUE, 7, TTL).ok());
        assertTrue(inner.contents().isEmpty(), "the writes said ok and wrote nothing: " + inner.contents());
        assertTrue(store.get(key("lost-1")).isEmpty());
    }
}
