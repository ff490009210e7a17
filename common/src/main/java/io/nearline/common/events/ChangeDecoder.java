package io.nearline.common.events;

import java.io.Serializable;

/**
 * Turns one record of the CDC topic (its Kafka key and value) into a change event, the reason it is
 * not one, or a skip. Chosen by {@code cdc.format}; the same on both engines. Implementations are
 * immutable and thread-safe (Flink ships them to its tasks, hence Serializable).
 */
public interface ChangeDecoder extends Serializable {

    Decoded decode(byte[] key, byte[] value);

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
