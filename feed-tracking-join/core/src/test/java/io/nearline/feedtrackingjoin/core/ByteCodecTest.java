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
package io.nearline.feedtrackingjoin.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

/**
 * The join's state is stored in this byte form on both engines: any sequence of fields reads back as
 * written, and bytes cut short or with a length that cannot be are refused as corrupt state, naming
 * where, rather than read as something else.
 */
class ByteCodecTest {

    /** One field and how to write and read it. */
    private record Field(char kind, Object value) {
        void write(ByteCodec.Writer out) {
            switch (kind) {
                case 'b' -> out.writeByte((Byte) value);
                case 'i' -> out.writeInt((Integer) value);
                case 'l' -> out.writeLong((Long) value);
                case 'd' -> out.writeDouble((Double) value);
                case 'z' -> out.writeBoolean((Boolean) value);
                case 's' -> out.writeString((String) value);
                default -> out.writeBytes((byte[]) value);
            }
        }

        Object read(ByteCodec.Reader in) {
            return switch (kind) {
                case 'b' -> in.readByte();
                case 'i' -> in.readInt();
                case 'l' -> in.readLong();
                case 'd' -> in.readDouble();
                case 'z' -> in.readBoolean();
                case 's' -> in.readString();
                default -> in.readBytes();
            };
        }
    }

    @Provide
    Arbitrary<List<Field>> fields() {
        Arbitrary<Field> field = Arbitraries.oneOf(
                Arbitraries.bytes().map(v -> new Field('b', v)),
                Arbitraries.integers().map(v -> new Field('i', v)),
                Arbitraries.longs().map(v -> new Field('l', v)),
                Arbitraries.doubles().map(v -> new Field('d', v)),
                Arbitraries.of(true, false).map(v -> new Field('z', v)),
                Arbitraries.strings().ofMaxLength(40).map(v -> new Field('s', v)),
                Arbitraries.bytes().array(byte[].class).ofMaxSize(300).map(v -> new Field('y', v)));
        return field.list().ofMaxSize(30);
    }

    private static byte[] encode(List<Field> fields) {
        ByteCodec.Writer out = new ByteCodec.Writer();
        fields.forEach(f -> f.write(out));
        return out.toByteArray();
    }

    @Property(tries = 300)
    void everySequenceOfFieldsReadsBackAsWritten(@ForAll("fields") List<Field> fields) {
        ByteCodec.Reader in = new ByteCodec.Reader(encode(fields));
        for (Field f : fields) {
            Object back = f.read(in);
            if (f.value() instanceof byte[] bytes) {
                assertArrayEquals(bytes, (byte[]) back);
            } else {
                assertEquals(f.value(), back, "field " + f.kind());
            }
        }
    }

    @Property(tries = 300)
    void bytesCutShortAreCorruptStateNotAnotherValue(
            @ForAll("fields") List<Field> fields, @ForAll @IntRange(min = 1, max = 10_000) int cut) {
        byte[] whole = encode(fields);
        if (whole.length == 0) {
            return;
        }
        byte[] shorter = Arrays.copyOf(whole, whole.length - 1 - (cut % whole.length));
        ByteCodec.Reader in = new ByteCodec.Reader(shorter);
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> {
            for (Field f : fields) {
                f.read(in);
            }
        });
        assertTrue(
                e.getMessage().startsWith("corrupt join state: " + shorter.length + " bytes end before"),
                e.getMessage());
    }

    @Property(tries = 100)
    void aNegativeLengthIsCorruptState(@ForAll @IntRange(min = Integer.MIN_VALUE, max = -1) int length) {
        byte[] bytes = new ByteCodec.Writer().writeInt(length).writeLong(0).toByteArray();
        assertThrows(IllegalStateException.class, () -> new ByteCodec.Reader(bytes).readString());
        assertThrows(IllegalStateException.class, () -> new ByteCodec.Reader(bytes).readBytes());
    }

    @Property(tries = 100)
    void aLengthPastTheEndIsCorruptStateEvenNearTwoToThe31(
            @ForAll @IntRange(min = Integer.MAX_VALUE - 16, max = Integer.MAX_VALUE) int length) {
        byte[] bytes = new ByteCodec.Writer().writeInt(length).writeLong(0).toByteArray();
        assertThrows(IllegalStateException.class, () -> new ByteCodec.Reader(bytes).readBytes());
    }

    @Property(tries = 50)
    void theWriterGrowsForAnySize(@ForAll @IntRange(min = 0, max = 200_000) int size) {
        List<Field> one = new ArrayList<>(List.of(new Field('y', new byte[size]), new Field('l', (long) size)));
        ByteCodec.Reader in = new ByteCodec.Reader(encode(one));
        assertEquals(size, in.readBytes().length);
        assertEquals(size, in.readLong());
    }
}
