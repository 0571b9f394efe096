-- Deterministic Lua workload: recursion, closures, varargs, integer math.
local function fib(n) if n < 2 then return n end return fib(n - 1) + fib(n - 2) end
local function counter()
  local c = 0
  return function(step) c = c + (step or 1); return c end
end
local acc = 0
for i = 1, 200000 do
  local f = counter()
  acc = (acc + f(i % 7) * f()) % 1000003
end
local function sum(...) local s = 0; for _, v in ipairs({...}) do s = s + v end; return s end
for i = 1, 100000 do acc = (acc + sum(i, i * 2, i % 13, 5)) % 1000003 end
print("fib", fib(27), "acc", acc)
