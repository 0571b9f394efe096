-- Deterministic Lua workload: tables, sorting, metatables, coroutines.
local t = {}
local seed = 42
local function rand() seed = (seed * 1103515245 + 12345) % 2147483648; return seed end
for i = 1, 200000 do t[i] = rand() % 1000000 end
table.sort(t)
local V = {}
V.__index = V
V.__add = function(a, b) return setmetatable({x = a.x + b.x, y = a.y + b.y}, V) end
local v = setmetatable({x = 0, y = 0}, V)
for i = 1, 200000 do v = v + setmetatable({x = i % 10, y = i % 7}, V) end
local gen = coroutine.wrap(function() for i = 1, 100000 do coroutine.yield(i * i % 1009) end end)
local cs = 0
for _ = 1, 100000 do cs = cs + gen() end
local h = {}
for i = 1, 100000 do h["k" .. (i % 5000)] = (h["k" .. (i % 5000)] or 0) + i end
local hs = 0
for _, val in pairs(h) do hs = (hs + val) % 1000003 end
print("min", t[1], "max", t[#t], "median", t[#t // 2], "v", v.x, v.y, "co", cs, "h", hs)
