#!lua name=nearline_v2

-- The Redis side of Nearline's cache store (docs/cache-record-format.md, "Redis").
--
-- Every key holds one Redis string: an 8-byte CAS token, then the cache record's envelope.
-- The version a write is ordered by sits right after the envelope's format and flags bytes:
--   format 1: SCN (8 bytes), schema version (4)                -> bytes 10..21 of the string
--   format 2: SCN (8 bytes), sequence (8), schema version (4)   -> bytes 10..29 of the string
-- all big-endian and never negative; format 1 is a version whose sequence is 0. GETRANGE reads
-- those bytes without copying the payload.
--
-- A call may carry many keys (a writer's batch: the call's own cost, about as much as one key's
-- read and write, is paid once), but each key is read and written on its own, so on Redis Cluster
-- the client sends together only keys of one hash slot. A key's own error (a key holding another
-- type, a write the server refuses) is its own reply, so the other keys of the call are not failed
-- with it: the commands are made with redis.pcall, which returns an error instead of raising it.

local CAS = 8                -- bytes of the CAS token in front of the envelope
local HEAD_V1 = CAS + 14     -- token, format, flags, scn, schema version
local HEAD_V2 = CAS + 22     -- token, format, flags, scn, sequence, schema version

-- The stored head of a key (up to HEAD_V2 bytes), '' when the key is absent (or expired), nil for a
-- value that is not a cache record of a format this library knows (that one is never overwritten),
-- or the server's error reply (a table) for a key it cannot read.
local function stored_head(key)
    local head = redis.pcall('GETRANGE', key, 0, HEAD_V2 - 1)
    if type(head) == 'table' then
        return head
    end
    if head == '' and redis.call('EXISTS', key) == 0 then
        return ''
    end
    local format = string.byte(head, CAS + 1)
    local complete = (format == 1 and #head >= HEAD_V1) or (format == 2 and #head >= HEAD_V2)
    if not complete or string.byte(head, CAS + 2) > 1 then
        return nil
    end
    return head
end

-- The version in a head as five unsigned 32-bit numbers: SCN (high, low), sequence (high, low),
-- schema version. 32-bit pieces are exact in Lua's doubles, where a 64-bit number would not be.
local function version_of(head)
    if string.byte(head, CAS + 1) == 1 then
        local s1, s2, v = struct.unpack('>I4I4I4', head, CAS + 3)
        return s1, s2, 0, 0, v
    end
    local s1, s2, q1, q2, v = struct.unpack('>I4I4I4I4I4', head, CAS + 3)
    return s1, s2, q1, q2, v
end

-- -1, 0 or 1 as the version in head a is below, equal to or above the one in head b, compared as
-- numbers piece by piece; not with '<' on strings, which follows the server's locale.
local function compare_versions(a, b)
    local a1, a2, a3, a4, a5 = version_of(a)
    local b1, b2, b3, b4, b5 = version_of(b)
    if a1 ~= b1 then return a1 < b1 and -1 or 1 end
    if a2 ~= b2 then return a2 < b2 and -1 or 1 end
    if a3 ~= b3 then return a3 < b3 and -1 or 1 end
    if a4 ~= b4 then return a4 < b4 and -1 or 1 end
    if a5 ~= b5 then return a5 < b5 and -1 or 1 end
    return 0
end

-- One key's ordered write: its outcome's letter followed by the head stored before it ('' if none).
-- A (applied), R (refreshed: an equal version written again), D (duplicate), S (stale: a newer
-- version is stored); C alone: the value there is not a cache record, and it is left alone; E and the
-- server's error: this key could not be read or written.
local function write_one(key, value, expiry_millis, rewrite_equal)
    local head = stored_head(key)
    if head == nil then
        return 'C'
    elseif type(head) == 'table' then
        return 'E' .. head.err
    end
    local outcome = 'A'
    if head ~= '' then
        local order = compare_versions(value, head)
        if order < 0 then
            return 'S' .. head
        elseif order == 0 then
            if rewrite_equal ~= '1' then
                return 'D' .. head
            end
            outcome = 'R'
        end
    end
    local written = redis.pcall('SET', key, value, 'PX', expiry_millis)
    if type(written) == 'table' and written.err then
        return 'E' .. written.err
    end
    return outcome .. head
end

-- The ordered write of every key given. KEYS: the keys. ARGV: three per key, in the keys' order: the
-- new value (token .. envelope), its expiry in milliseconds, '1' to rewrite an equal version
-- (restarting its expiry). Returns one reply per key, as write_one's.
local function write_if_newer(keys, args)
    local replies = {}
    for i = 1, #keys do
        local at = 3 * i - 2
        replies[i] = write_one(keys[i], args[at], args[at + 1], args[at + 2])
    end
    return replies
end

-- Compare-and-swap. KEYS[1]: the key. ARGV[1]: the expected token; ARGV[2]: the new value;
-- ARGV[3]: its expiry in milliseconds. Returns OK, CAS_MISMATCH or NOT_FOUND.
local function replace_if_cas(keys, args)
    local token = redis.call('GETRANGE', keys[1], 0, CAS - 1)
    if token == '' and redis.call('EXISTS', keys[1]) == 0 then
        return 'NOT_FOUND'
    end
    if token ~= args[1] then
        return 'CAS_MISMATCH'
    end
    redis.call('SET', keys[1], args[2], 'PX', args[3])
    return 'OK'
end

redis.register_function('nearline_v2_write', write_if_newer)
redis.register_function('nearline_v2_replace', replace_if_cas)
