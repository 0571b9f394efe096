-- Deterministic Lua workload: string building, patterns, gsub, formatting.
local words = {}
for i = 1, 60000 do
  words[#words + 1] = string.format("w%05d-%s", (i * 7919) % 100000, i % 3 == 0 and "x" or "yy")
end
local text = table.concat(words, " ")
local count, total = 0, 0
for w, n in text:gmatch("(w(%d+))") do
  count = count + 1
  total = (total + tonumber(n)) % 1000003
end
local replaced, k = text:gsub("%-yy", "+"):gsub("w0", "v")
print("words", count, "sum", total, "len", #replaced, "subs", k, text:upper():sub(1, 20))
