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

import io.nearline.common.config.Config;
import io.nearline.common.config.ConfigDef;
import io.nearline.common.config.ConfigKey;
import io.nearline.common.config.ValueType;
import io.nearline.common.store.CacheStore;
import java.time.Duration;
import java.util.concurrent.atomic.LongAdder;

/**
 * The outage switch the local tools put around a job's store ({@code
 * LocalStores}) with {@code outage.enabled=true}: the demo's injected
 * outage and the tests that run the real engines through one. The switch is flipped with {@link #down},
 * or, with {@code outage.after-open}, from the moment a job first opens the store in this JVM. One switch
 * per JVM: every store behind it goes down together. With {@code outage.refuse-prefix} it also refuses
 * some keys' writes for good; with {@code outage.lose-prefix} it drops some keys' writes while saying they
 * succeeded. Local tooling only: no job artifact has it.
 */
public final class OutageStore {

    public static final ConfigKey<Boolean> ENABLED = ConfigKey.of(
            "outage.enabled",
            ValueType.BOOLEAN,
            false,
            "Put the store (cache.store) behind the outage switch of the local tools.");
    public static final ConfigKey<Duration> AFTER_OPEN = ConfigKey.of(
            "outage.after-open",
            ValueType.DURATION,
            Duration.ZERO,
            "Down for this long from the first open in this JVM (0: only when switched).");

    public static final ConfigKey<String> REFUSE_PREFIX = ConfigKey.of(
            "outage.refuse-prefix",
            ValueType.STRING,
            "",
            "Writes of keys that start with this are refused for good, as a store rejecting a record would"
                    + " (empty: none).");

    public static final ConfigKey<String> LOSE_PREFIX = ConfigKey.of(
            "outage.lose-prefix",
            ValueType.STRING,
            "",
            "Writes of keys that start with this are acknowledged and dropped, as a store losing data would: "
                    + "a planted fault for checking the checkers (empty: none).");

    public static final ConfigDef DEF = ConfigDef.of(
                    "outage switch (local tools)", ENABLED, AFTER_OPEN, REFUSE_PREFIX, LOSE_PREFIX)
            .withInvariant(
                    c -> c.get(ENABLED) || c.asMap().keySet().stream().noneMatch(k -> k.startsWith("outage.")),
                    "an 'outage.*' setting without 'outage.enabled=true' would do nothing: add outage.enabled=true.");
    private static final LongAdder REFUSED = new LongAdder();
    private static long downUntil = -1; // guarded by the class; -1: no outage started yet

    private OutageStore() {}

    /** Takes every outage store in this JVM down for {@code duration}, from now. */
    public static synchronized void down(Duration duration) {
        downUntil = System.currentTimeMillis() + duration.toMillis();
    }

    /** Forgets the previous outage and the refused calls: the next open may start a new one. */
    public static synchronized void reset() {
        downUntil = -1;
        REFUSED.reset();
    }

    /** Calls refused during outages so far. */
    public static long refusedCalls() {
        return REFUSED.sum();
    }

    private static synchronized boolean isDown() {
        return System.currentTimeMillis() < downUntil;
    }

    /** {@code store} behind the switch; the first call in this JVM starts {@code outage.after-open}'s outage. */
    public static CacheStore around(CacheStore store, Config config) {
        Duration afterOpen = config.get(AFTER_OPEN);
        synchronized (OutageStore.class) {
            if (downUntil < 0 && !afterOpen.isZero()) {
                down(afterOpen);
            }
        }
        String refusePrefix = config.get(REFUSE_PREFIX);
        String losePrefix = config.get(LOSE_PREFIX);
        return new SwitchableStore(
                store,
                OutageStore::isDown,
                REFUSED,
                key -> !refusePrefix.isEmpty() && key.value().startsWith(refusePrefix),
                key -> !losePrefix.isEmpty() && key.value().startsWith(losePrefix));
    }
}
