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
package io.nearline.cacheupdater.flink;

/**
 * A change event that passed intake, keyed by its cache key, with the record it came from (for a
 * dead letter if the store refuses it). It travels as its Avro bytes (cheap to ship between tasks,
 * decoded again where it is written). A Flink POJO.
 */
public class Change {
    public String key;
    /** The change event's Avro bytes. */
    public byte[] value;

    public String topic;
    public int partition;
    public long offset;
    public byte[] sourceKey;
    /** The record as read when it is not {@link #value} itself (a bootstrap record around its row); else null. */
    public byte[] sourceValue;
    /** A bootstrap row: an equal version in the store is rewritten so its TTL starts again. */
    public boolean refreshTtl;

    public Change() {}

    Change(String key, byte[] value, KafkaInput in, boolean fromBootstrap) {
        this.key = key;
        this.value = value;
        this.topic = in.topic;
        this.partition = in.partition;
        this.offset = in.offset;
        this.sourceKey = in.key;
        this.sourceValue = value == in.value ? null : in.value;
        this.refreshTtl = fromBootstrap;
    }
}
