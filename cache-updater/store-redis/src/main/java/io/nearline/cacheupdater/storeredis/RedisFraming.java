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
package io.nearline.cacheupdater.storeredis;

import io.lettuce.core.RedisCommandExecutionException;
import io.nearline.common.cache.CacheKey;
import io.nearline.common.cache.CacheRecordCodec;
import io.nearline.common.cache.CorruptCacheRecordException;
import io.nearline.common.store.CacheStore.Stored;
import io.nearline.common.store.StoreException;
import io.nearline.common.store.StoreOrderedWrite.Outcome;
import io.nearline.common.store.StoreOrderedWrite.Result;
import io.nearline.common.version.Version;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.ThreadLocalRandom;

/**
 * How the Redis store lays a key's value out, and reads the function's replies: an 8-byte CAS token,
 * random per write, then the cache-record envelope; a reply is an outcome's letter, then the head
 * stored before the write.
 */
final class RedisFraming {

    static final int TOKEN_BYTES = 8;

    private RedisFraming() {}

    /**
     * One key's reply from the function as a result: the outcome's letter, then the head stored before
     * the write (the token and the envelope's first bytes up to the version's end: format, flags, SCN,
     * [sequence,] schema version), empty where nothing was stored; {@code C} alone for a value that is
     * not a cache record, which the function left alone; {@code E} and the server's error for this key
     * alone (classified as a command's error is).
     */
    static Result result(CacheKey key, byte[] reply) {
        Outcome outcome =
                switch (reply.length == 0 ? '?' : (char) reply[0]) {
                    case 'A' -> Outcome.APPLIED;
                    case 'R' -> Outcome.REFRESHED;
                    case 'D' -> Outcome.DUPLICATE;
                    case 'S' -> Outcome.STALE;
                    case 'C' ->
                        throw new CorruptCacheRecordException("the value at '" + key
                                + "' is not a cache record of format 1 or 2 (another application's data?)");
                    case 'E' ->
                        throw new RedisCommandExecutionException(
                                new String(reply, 1, reply.length - 1, StandardCharsets.UTF_8));
                    default ->
                        throw new StoreException("unexpected reply from " + RedisCacheStore.WRITE + " for '" + key
                                + "': " + Arrays.toString(reply));
                };
        if (reply.length == 1) {
            return new Result(outcome, Version.NONE);
        }
        ByteBuffer in = ByteBuffer.wrap(reply, 1, reply.length - 1).slice();
        long scn = in.getLong(TOKEN_BYTES + 2);
        return in.get(TOKEN_BYTES) == CacheRecordCodec.FORMAT_V2
                ? new Result(outcome, Version.of(scn, in.getLong(TOKEN_BYTES + 10), in.getInt(TOKEN_BYTES + 18)))
                : new Result(outcome, Version.of(scn, in.getInt(TOKEN_BYTES + 10)));
    }

    /** {@code text} as a glob pattern that matches only itself (SCAN's MATCH). */
    static String glob(String text) {
        return text.replaceAll("([*?\\[\\]\\\\])", "\\\\$1");
    }

    static byte[] bytes(CacheKey key) {
        return key.value().getBytes(StandardCharsets.UTF_8);
    }

    static byte[] millis(Duration expiry) {
        return Long.toString(expiry.toMillis()).getBytes(StandardCharsets.US_ASCII);
    }

    static long newToken() {
        return ThreadLocalRandom.current().nextLong();
    }

    static byte[] frame(long token, byte[] value) {
        return ByteBuffer.allocate(TOKEN_BYTES + value.length)
                .putLong(token)
                .put(value)
                .array();
    }

    static Stored unframe(CacheKey key, byte[] framed) {
        if (framed.length < TOKEN_BYTES) {
            throw new CorruptCacheRecordException("the value at '" + key + "' (" + framed.length
                    + " bytes) was not written by this store: it has no CAS token");
        }
        return new Stored(
                Arrays.copyOfRange(framed, TOKEN_BYTES, framed.length),
                ByteBuffer.wrap(framed).getLong());
    }
}
