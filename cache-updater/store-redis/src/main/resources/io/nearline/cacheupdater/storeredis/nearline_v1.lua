#!lua name=nearline_v1

-- The Redis side of Nearline's cache store (docs/cache-record-format.md, "Redis").
--
-- Every key holds one Redis string: an 8-byte CAS token, then the cache record's envelope.
-- The version a write is ordered by sits right after the envelope's format and flags bytes:
--   format 1: SCN (8 bytes), schema version (4)                -> bytes 10..21 of the string
--   format 2: SCN (8 bytes), sequence (8), schema version (4)   -> bytes 10..29 of the string
-- all big-endian and never negative; format 1 is a version whose sequence is 0. GETRANGE reads
-- those bytes without copying the payload.
--
-- Each function touches only the key it is given, so it runs unchanged on Redis Cluster.
-- Errors start with a word the client maps: NEARLINE_CORRUPT (a value this library did not write).

local CAS = 8                -- bytes of the CAS token in front of the envelope
local HEAD_V1 = CAS + 14     -- token, format, flags, scn, schema version
local HEAD_V2 = CAS + 22     -- token, format, flags, scn, sequence, schema version

-- The stored head of a key (up to HEAD_V2 bytes), '' when the key is absent (or expired); an error
-- for a value that is not a cache record of a format this library knows: it is never overwritten.
local function stored_head(key)
    local head = redis.call('GETRANGE', key, 0, HEAD_V2 - 1)
    if head == '' and redis.call('EXISTS', key) == 0 then
        return ''
    end
    local format = string.byte(head, CAS + 1)
    local complete = (format == 1 and #head >= HEAD_V1) or (format == 2 and #head >= HEAD_V2)
    if not complete or string.byte(head, CAS + 2) > 1 then
        return redis.error_reply('NEARLINE_CORRUPT the value at this key is not a cache record of format 1 or 2')
    end
    return head
end

-- The version in a head as five unsigned 32-bit numbers: SCN (high, low), sequence (high, low),
-- schema version. 32-bit pieces are exact in Lua's doubles, where a 64-bit number would not be.
local function version_words(head)
    if string.byte(head, CAS + 1) == 1 then
        local s1, s2, v = struct.unpack('>I4I4I4', head, CAS + 3)
        return {s1, s2, 0, 0, v}
    end
    local s1, s2, q1, q2, v = struct.unpack('>I4I4I4I4I4', head, CAS + 3)
    return {s1, s2, q1, q2, v}
end

-- -1, 0 or 1 as the version in head a is below, equal to or above the one in head b, compared as
-- numbers piece by piece; not with '<' on strings, which follows the server's locale.
local function compare_versions(a, b)
    local x, y = version_words(a), version_words(b)
    for i = 1, 5 do
        if x[i] ~= y[i] then
            return x[i] < y[i] and -1 or 1
        end
    end
    return 0
end

-- The ordered write. KEYS[1]: the key. ARGV[1]: the new value (token .. envelope); ARGV[2]: its
-- expiry in milliseconds; ARGV[3]: '1' to rewrite an equal version (restarting its expiry).
-- Returns {outcome, stored head}: APPLIED, REFRESHED, DUPLICATE or STALE.
local function write_if_newer(keys, args)
    local head = stored_head(keys[1])
    if type(head) == 'table' then
        return head
    end
    local outcome = 'APPLIED'
    if head ~= '' then
        local order = compare_versions(args[1], head)
        if order < 0 then
            return {'STALE', head}
        elseif order == 0 then
            if args[3] ~= '1' then
                return {'DUPLICATE', head}
            end
            outcome = 'REFRESHED'
        end
    end
    redis.call('SET', keys[1], args[1], 'PX', args[2])
    return {outcome, head}
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

redis.register_function('nearline_v1_write', write_if_newer)
redis.register_function('nearline_v1_replace', replace_if_cas)
