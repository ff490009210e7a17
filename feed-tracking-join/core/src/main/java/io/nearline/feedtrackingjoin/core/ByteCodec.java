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

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A plain growable byte writer and its reader, for the join's state formats: big-endian numbers,
 * strings as length-prefixed UTF-8. No synchronisation and no streams: state is encoded and decoded
 * on every event, so this is hot.
 */
final class ByteCodec {

    private ByteCodec() {}

    static final class Writer {
        private byte[] buf = new byte[256];
        private int pos;

        private void ensure(int n) {
            if (pos + n > buf.length) {
                buf = Arrays.copyOf(buf, Math.max(buf.length * 2, pos + n));
            }
        }

        Writer writeByte(int b) {
            ensure(1);
            buf[pos++] = (byte) b;
            return this;
        }

        Writer writeInt(int v) {
            ensure(4);
            for (int shift = 24; shift >= 0; shift -= 8) {
                buf[pos++] = (byte) (v >>> shift);
            }
            return this;
        }

        Writer writeLong(long v) {
            ensure(8);
            for (int shift = 56; shift >= 0; shift -= 8) {
                buf[pos++] = (byte) (v >>> shift);
            }
            return this;
        }

        Writer writeDouble(double v) {
            return writeLong(Double.doubleToRawLongBits(v));
        }

        Writer writeBoolean(boolean v) {
            return writeByte(v ? 1 : 0);
        }

        Writer writeString(String s) {
            byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
            writeInt(utf8.length);
            ensure(utf8.length);
            System.arraycopy(utf8, 0, buf, pos, utf8.length);
            pos += utf8.length;
            return this;
        }

        Writer writeBytes(byte[] bytes) {
            writeInt(bytes.length);
            ensure(bytes.length);
            System.arraycopy(bytes, 0, buf, pos, bytes.length);
            pos += bytes.length;
            return this;
        }

        byte[] toByteArray() {
            return Arrays.copyOf(buf, pos);
        }
    }

    static final class Reader {
        private final byte[] buf;
        private int pos;

        Reader(byte[] buf) {
            this.buf = buf;
        }

        private void need(int n) {
            if (n < 0) {
                throw new IllegalStateException("corrupt join state: a field of " + n + " bytes at " + pos);
            }
            if (n > buf.length - pos) { // not pos + n, which a length near 2^31 overflows
                throw new IllegalStateException(
                        "corrupt join state: " + buf.length + " bytes end before a " + n + "-byte field at " + pos);
            }
        }

        byte readByte() {
            need(1);
            return buf[pos++];
        }

        int readInt() {
            need(4);
            int v = 0;
            for (int i = 0; i < 4; i++) {
                v = (v << 8) | (buf[pos++] & 0xff);
            }
            return v;
        }

        long readLong() {
            need(8);
            long v = 0;
            for (int i = 0; i < 8; i++) {
                v = (v << 8) | (buf[pos++] & 0xff);
            }
            return v;
        }

        double readDouble() {
            return Double.longBitsToDouble(readLong());
        }

        boolean readBoolean() {
            return readByte() != 0;
        }

        byte[] readBytes() {
            int n = readInt();
            need(n);
            byte[] out = Arrays.copyOfRange(buf, pos, pos + n);
            pos += n;
            return out;
        }

        String readString() {
            int n = readInt();
            need(n);
            String s = new String(buf, pos, n, StandardCharsets.UTF_8);
            pos += n;
            return s;
        }
    }
}
