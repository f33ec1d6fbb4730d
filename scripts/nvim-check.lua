-- Neovim (0.7+) as a second real LSP client of the built server (e2e-recipe §4).
-- Env: LSP_SERVER (dist/server.js), ADAPTER_FILE, EXPECT ("line:code,line:code", 1-based lines),
--      HOVER_AT / COMPLETE_AT / FIX_AT ("line:col", 1-based) with HOVER_WANT / COMPLETE_WANT / FIX_WANT substrings.
-- Prints what it saw and closes with "N passed, M failed"; exits non-zero on failure.
local out = function(s) io.stdout:write(s .. '\n') end
local server, file = os.getenv('LSP_SERVER'), os.getenv('ADAPTER_FILE')
local passed, failed = 0, 0
local function check(ok, what) if ok then passed = passed + 1; out('ok - ' .. what) else failed = failed + 1; out('not ok - ' .. what) end end

vim.cmd('edit ' .. vim.fn.fnameescape(file))
local buf = vim.api.nvim_get_current_buf()
local published = false
local id = vim.lsp.start_client({
  name = 'mcp-aql', cmd = { 'node', server, '--stdio' }, root_dir = vim.fn.fnamemodify(file, ':h'),
  handlers = { ['textDocument/publishDiagnostics'] = function(err, result, ctx, config)
    vim.lsp.diagnostic.on_publish_diagnostics(err, result, ctx, config)
    if result.uri == vim.uri_from_bufnr(buf) then published = true end
  end },
})
vim.lsp.buf_attach_client(buf, id)
check(vim.wait(20000, function() return published end, 20), 'server published diagnostics')
-- What other files could contradict (mapping.unknown-code) is published once the server's workspace scan is
-- complete, in a later publication: wait until every expected diagnostic is there (or the same 20 s).
local function codeOf(d) return d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code) or '?' end
vim.wait(20000, function()
  local have = {}
  for _, d in ipairs(vim.diagnostic.get(buf)) do have[(d.lnum + 1) .. ':' .. codeOf(d)] = true end
  for want in string.gmatch(os.getenv('EXPECT') or '', '[^,]+') do if not have[want] then return false end end
  return true
end, 20)

local diags = vim.diagnostic.get(buf)
table.sort(diags, function(a, b) return a.lnum < b.lnum end)
local seen = {}
for _, d in ipairs(diags) do
  local code = codeOf(d)
  out(string.format('%s:%d:%d: severity=%d [%s] %s %s', file, d.lnum + 1, d.col + 1, d.severity, d.source or '?', code, d.message))
  seen[(d.lnum + 1) .. ':' .. code] = true
end
for want in string.gmatch(os.getenv('EXPECT') or '', '[^,]+') do check(seen[want] == true, 'diagnostic ' .. want) end

local client = vim.lsp.get_client_by_id(id)
local function at(var) local l, c = string.match(os.getenv(var) or '', '(%d+):(%d+)'); return l and { line = tonumber(l) - 1, character = tonumber(c) - 1 } end
local function request(method, params)
  local res = vim.lsp.buf_request_sync(buf, method, params, 10000) or {}
  for _, r in pairs(res) do if r.result then return r.result end end
end
local td = { uri = vim.uri_from_bufnr(buf) }

local hp = at('HOVER_AT')
if hp then
  local h = request('textDocument/hover', { textDocument = td, position = hp })
  local text = h and (type(h.contents) == 'string' and h.contents or h.contents.value) or ''
  check(string.find(text, os.getenv('HOVER_WANT'), 1, true) ~= nil, 'hover shows ' .. os.getenv('HOVER_WANT'))
end
local cp = at('COMPLETE_AT')
if cp then
  local items = request('textDocument/completion', { textDocument = td, position = cp }) or {}
  if items.items then items = items.items end
  local found = false
  for _, it in ipairs(items) do if it.label == os.getenv('COMPLETE_WANT') then found = true end end
  check(found, 'completion offers ' .. os.getenv('COMPLETE_WANT') .. ' (' .. #items .. ' items)')
end
local fp = at('FIX_AT')
if fp then
  local ctx_diags = {}
  for _, d in ipairs(diags) do
    if d.lnum == fp.line then
      local code = d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code)
      table.insert(ctx_diags, { range = { start = { line = d.lnum, character = d.col }, ['end'] = { line = d.end_lnum, character = d.end_col } },
        severity = d.severity, source = d.source, message = d.message, code = code })
    end
  end
  local actions = request('textDocument/codeAction', { textDocument = td, range = { start = fp, ['end'] = fp }, context = { diagnostics = ctx_diags } }) or {}
  local found = false
  for _, a in ipairs(actions) do if a.title == os.getenv('FIX_WANT') then found = true end end
  check(found, 'quick fix "' .. os.getenv('FIX_WANT') .. '" (' .. #actions .. ' actions)')
end

out(string.format('%d passed, %d failed', passed, failed))
vim.lsp.stop_client(id)
vim.wait(3000, function() return vim.lsp.get_client_by_id(id) == nil end, 20)
vim.cmd(failed == 0 and 'qa!' or 'cq!')
