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
package io.nearline.common.events;

import java.io.Serializable;

/**
 * Turns one record of the CDC topic (its Kafka key and value) into a change event, the reason it is
 * not one, or a skip. Chosen by {@code cdc.format}; the same on both engines. Implementations are
 * immutable and thread-safe (Flink ships them to its tasks, hence Serializable).
 */
public interface ChangeDecoder extends Serializable {

    Decoded decode(byte[] key, byte[] value);

    /**
     * The table a record names, for a record {@link #decode} rejected: read as far as the record allows,
     * so that its rejection is counted against its table; empty where it names none or cannot be read.
     */
    default String tableOf(byte[] key, byte[] value) {
        return "";
    }

    /** This project's own form: Avro {@code ChangeEvent} in the value; the key is only for partitioning. */
    ChangeDecoder AVRO = new Avro();

    final class Avro implements ChangeDecoder {
        private static final long serialVersionUID = 1L;

        @Override
        public Decoded decode(byte[] key, byte[] value) {
            return ChangeEventCodec.decode(value);
        }

        private Object readResolve() {
            return AVRO;
        }
    }
}
