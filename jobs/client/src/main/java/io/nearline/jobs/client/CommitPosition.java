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
package io.nearline.jobs.client;

import io.nearline.common.events.DebeziumVersion;

/**
 * The commit position an application takes from its own transaction, as the cache's published
 * consistent-through compares with it ({@link Through#passed}): read it after the commit returns, on
 * the same connection or any other.
 *
 * <ul>
 *   <li>PostgreSQL: {@code SELECT pg_current_wal_lsn()}, e.g. {@code 0/15620C0};
 *   <li>MySQL and MariaDB: {@code SHOW MASTER STATUS}, its binlog file and position.
 * </ul>
 *
 * Why this is enough: a change the job publishes as durable at position P came after every commit that
 * ended before P in the log, since PostgreSQL's connector ranks a change by the commit before its own
 * transaction and MySQL's by its binlog position.
 */
public final class CommitPosition {

    private CommitPosition() {}

    /** A PostgreSQL LSN as {@code pg_current_wal_lsn()} prints it ({@code X/Y}, hexadecimal). */
    public static long postgres(String lsn) {
        int slash = lsn.indexOf('/');
        if (slash < 1 || slash == lsn.length() - 1) {
            throw new IllegalArgumentException("a PostgreSQL LSN is X/Y in hexadecimal, got '" + lsn + "'");
        }
        return Long.parseUnsignedLong(lsn.substring(0, slash), 16) << 32
                | Long.parseUnsignedLong(lsn.substring(slash + 1), 16);
    }

    /** A MySQL or MariaDB binlog position, as {@code SHOW MASTER STATUS} gives it. */
    public static long binlog(String file, long pos) {
        return DebeziumVersion.ofBinlog(file, pos).scn();
    }
}
