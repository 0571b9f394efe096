-- Deterministic Lua ref workload (bench/run): classes with inheritance,
-- dynamic dispatch, pcall/error, a priority queue, string keys.
--   lua objects.lua [SCALE]
local scale = tonumber(arg and arg[1]) or 10
local Shape = {}; Shape.__index = Shape
function Shape.new(kind, a, b) return setmetatable({kind = kind, a = a, b = b}, Shape) end
function Shape:area() error("abstract " .. self.kind) end
local Rect = setmetatable({}, {__index = Shape}); Rect.__index = Rect
function Rect:area() return self.a * self.b end
local Circle = setmetatable({}, {__index = Shape}); Circle.__index = Circle
function Circle:area() return 3 * self.a * self.a end
local Tri = setmetatable({}, {__index = Shape}); Tri.__index = Tri
function Tri:area() if self.a < 0 then error("negative") end return self.a * self.b // 2 end
local classes = {Rect, Circle, Tri, Shape}
-- binary heap
local function push(h, v)
  h[#h + 1] = v
  local i = #h
  while i > 1 do
    local p = i // 2
    if h[p] <= h[i] then break end
    h[p], h[i] = h[i], h[p]; i = p
  end
end
local function pop(h)
  local top, n = h[1], #h
  h[1] = h[n]; h[n] = nil; n = n - 1
  local i = 1
  while true do
    local l, r, m = 2 * i, 2 * i + 1, i
    if l <= n and h[l] < h[m] then m = l end
    if r <= n and h[r] < h[m] then m = r end
    if m == i then break end
    h[m], h[i] = h[i], h[m]; i = m
  end
  return top
end
local seed = 99
local function rand(n) seed = (seed * 1103515245 + 12345) % 2147483648; return seed % n end
local sum, errors, heapsum, kinds = 0, 0, 0, {}
for _ = 1, scale do
  local heap = {}
  for i = 1, 20000 do
    local c = classes[1 + rand(#classes)]
    local s = setmetatable(Shape.new(c == Rect and "rect" or c == Circle and "circle" or c == Tri and "tri" or "shape",
      rand(50) - (c == Tri and 5 or 0), rand(40)), c)
    local ok, a = pcall(s.area, s)
    if ok then sum = (sum + a) % 1000003; push(heap, a) else errors = errors + 1 end
    kinds[s.kind] = (kinds[s.kind] or 0) + 1
  end
  for _ = 1, #heap // 2 do heapsum = (heapsum + pop(heap)) % 1000003 end
end
local ks = {}
for k, n in pairs(kinds) do ks[#ks + 1] = k .. "=" .. n end
table.sort(ks)
print("objects", sum, errors, heapsum, table.concat(ks, " "))
