-- Deterministic Lua ref workload (bench/run): a word-frequency pass, a
-- template expander and a small tokenizer over generated text.
--   lua textproc.lua [SCALE]
local scale = tonumber(arg and arg[1]) or 10
local syll = {"ka", "lo", "mi", "ne", "ru", "so", "ta", "vi", "xe", "zu", "ba", "do"}
local seed = 3
local function rand(n) seed = (seed * 1103515245 + 12345) % 2147483648; return seed % n end
local lines = {}
for i = 1, 2000 * scale do
  local ws = {}
  for j = 1, 3 + rand(9) do
    local w = {}
    for _ = 1, 1 + rand(3) do w[#w + 1] = syll[1 + rand(#syll)] end
    ws[j] = table.concat(w)
    if rand(10) == 0 then ws[j] = ws[j]:upper() elseif rand(7) == 0 then ws[j] = tostring(rand(1000)) end
  end
  lines[i] = table.concat(ws, rand(5) == 0 and ", " or " ") .. (rand(4) == 0 and "." or "")
end
local freq, nwords = {}, 0
for _, l in ipairs(lines) do
  for w in l:gmatch("%a+") do nwords = nwords + 1; w = w:lower(); freq[w] = (freq[w] or 0) + 1 end
end
local top = {}
for w, n in pairs(freq) do top[#top + 1] = {w, n} end
table.sort(top, function(a, b) return a[2] > b[2] or (a[2] == b[2] and a[1] < b[1]) end)
local vars = {name = "path", n = 42, kind = "hot"}
local expanded = 0
for i = 1, #lines, 3 do
  local s = ("${name}-%d: ${kind} ${n} ${missing} " .. lines[i]):format(i)
  s = s:gsub("%${(%w+)}", function(k) return vars[k] and tostring(vars[k]) or "?" end)
  expanded = expanded + #s
end
local tokens = {num = 0, word = 0, punct = 0, upper = 0}
for _, l in ipairs(lines) do
  local p = 1
  while p <= #l do
    local c = l:sub(p, p)
    if c:match("%d") then local e = l:find("%D", p) or #l + 1; tokens.num = tokens.num + 1; p = e
    elseif c:match("%u") then local e = l:find("%U", p) or #l + 1; tokens.upper = tokens.upper + 1; p = e
    elseif c:match("%a") then local e = l:find("%A", p) or #l + 1; tokens.word = tokens.word + 1; p = e
    elseif c:match("%p") then tokens.punct = tokens.punct + 1; p = p + 1
    else p = p + 1 end
  end
end
print("text", nwords, #top, top[1][1], top[1][2], expanded, tokens.num, tokens.word, tokens.punct, tokens.upper)
