-- Deterministic Lua ref workload (bench/run): encode a generated document
-- as JSON text, parse it back with a recursive-descent parser, compare.
--   lua json.lua [SCALE]
local scale = tonumber(arg and arg[1]) or 10
local seed = 7
local function rand(n) seed = (seed * 1103515245 + 12345) % 2147483648; return seed % n end
local function gen(depth)
  local r = rand(depth > 3 and 4 or 7)
  if r == 0 then return rand(100000) - 50000
  elseif r == 1 then return rand(1000) / 8
  elseif r == 2 then return ("s%d\t\"q\"\\%d"):format(rand(999), rand(99))
  elseif r == 3 then return rand(2) == 0
  elseif r == 4 or r == 5 then
    local t = {}
    for i = 1, 1 + rand(6) do t[i] = gen(depth + 1) end
    return t
  else
    local t = {}
    for i = 1, 1 + rand(6) do t["k" .. rand(50) .. "_" .. i] = gen(depth + 1) end
    return t
  end
end
local esc = { ['"'] = '\\"', ['\\'] = '\\\\', ['\t'] = '\\t', ['\n'] = '\\n' }
local function encode(v, out)
  local ty = type(v)
  if ty == "table" then
    if #v > 0 then
      out[#out + 1] = "["
      for i, x in ipairs(v) do if i > 1 then out[#out + 1] = "," end; encode(x, out) end
      out[#out + 1] = "]"
    else
      local keys = {}
      for k in pairs(v) do keys[#keys + 1] = k end
      table.sort(keys)
      out[#out + 1] = "{"
      for i, k in ipairs(keys) do
        if i > 1 then out[#out + 1] = "," end
        encode(k, out); out[#out + 1] = ":"; encode(v[k], out)
      end
      out[#out + 1] = "}"
    end
  elseif ty == "string" then out[#out + 1] = '"' .. v:gsub('[%c"\\]', esc) .. '"'
  elseif ty == "number" then
    out[#out + 1] = math.type(v) == "integer" and tostring(v) or ("%.3f"):format(v)
  else out[#out + 1] = tostring(v) end
end
local function decode(s)
  local pos = 1
  local value
  local function ws() pos = s:find("[^ \n\t]", pos) or #s + 1 end
  local function str()
    local buf, i = {}, pos + 1
    while true do
      local c = s:sub(i, i)
      if c == '"' then pos = i + 1; return table.concat(buf)
      elseif c == "\\" then
        local n = s:sub(i + 1, i + 1)
        buf[#buf + 1] = n == "t" and "\t" or n == "n" and "\n" or n
        i = i + 2
      else buf[#buf + 1] = c; i = i + 1 end
    end
  end
  function value()
    ws()
    local c = s:sub(pos, pos)
    if c == "{" then
      local t = {}; pos = pos + 1; ws()
      if s:sub(pos, pos) == "}" then pos = pos + 1; return t end
      repeat
        ws(); local k = str(); ws(); pos = pos + 1
        t[k] = value(); ws()
        c = s:sub(pos, pos); pos = pos + 1
      until c == "}"
      return t
    elseif c == "[" then
      local t = {}; pos = pos + 1; ws()
      if s:sub(pos, pos) == "]" then pos = pos + 1; return t end
      repeat
        t[#t + 1] = value(); ws()
        c = s:sub(pos, pos); pos = pos + 1
      until c == "]"
      return t
    elseif c == '"' then return str()
    elseif s:sub(pos, pos + 3) == "true" then pos = pos + 4; return true
    elseif s:sub(pos, pos + 4) == "false" then pos = pos + 5; return false
    else
      local num = s:match("^-?[%d.]+", pos); pos = pos + #num
      if num:find(".", 1, true) then return tonumber(num) + 0.0 end
      return math.tointeger(tonumber(num))
    end
  end
  return value()
end
local total, bytes = 0, 0
for round = 1, scale do
  local doc = {}
  for i = 1, 300 do doc[i] = gen(0) end
  local out = {}
  encode(doc, out)
  local text = table.concat(out)
  local again = {}
  encode(decode(text), again)
  assert(table.concat(again) == text, "round trip " .. round)
  bytes = bytes + #text
  for n in text:gmatch("%d+") do total = (total + tonumber(n)) % 1000003 end
end
print("json bytes", bytes, "digits", total)
