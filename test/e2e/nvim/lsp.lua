-- A second editor: Neovim (0.7+) runs the language server over stdio with its built-in LSP client, opens one
-- file, waits for diagnostics, asks for a hover, and writes everything it saw to a JSON file that the Node test
-- (scripts/e2e/run-nvim.mjs) reads. Never hangs: every wait has a limit, and a guard timer quits with an error.
--
--   nvim --headless -u NONE -i NONE -n -c 'luafile test/e2e/nvim/lsp.lua'
--
-- Environment: E2E_RESULT (JSON written here), E2E_FILE (file to open), E2E_SERVER_CMD (JSON array: the server's
-- command line), E2E_HOVER_LINE / E2E_HOVER_CHAR (0-based hover position), E2E_TIMEOUT_MS (each wait),
-- E2E_LANGUAGE_ID (default cuda-cpp), E2E_SETTINGS (JSON: what workspace/configuration answers), E2E_ROOT (the
-- workspace folder; default the file's folder), E2E_WAIT_MESSAGE (wait for a diagnostic whose message holds this).
local function env(name, default)
  local v = os.getenv(name)
  if v == nil or v == '' then
    if default == nil then error(name .. ' is not set') end
    return default
  end
  return v
end

local out = os.getenv('E2E_RESULT') or 'nvim-lsp-result.json'
local timeout = tonumber(os.getenv('E2E_TIMEOUT_MS') or '30000')
local file, cmd, hover_line, hover_char, language_id, settings
local result = {
  nvim = tostring(vim.version().major) .. '.' .. vim.version().minor .. '.' .. vim.version().patch,
  steps = {},
  published = {},
  diagnostics = {},
  progress = {},
  log = {},
}

local finished = false
local function finish(code)
  if finished then return end
  finished = true
  result.exit = code
  local ok, encoded = pcall(vim.fn.json_encode, result)
  if not ok then encoded = vim.fn.json_encode({ exit = 1, error = 'could not encode result: ' .. tostring(encoded) }) end
  vim.fn.writefile({ encoded }, out)
  if code == 0 then vim.cmd('qall!') else vim.cmd('cquit! ' .. code) end
end

local function step(name, ok, detail)
  table.insert(result.steps, { name = name, ok = ok, detail = detail })
end

-- guard: whatever happens, quit
vim.defer_fn(function()
  result.error = 'guard timer: the script did not finish in ' .. (timeout * 4) .. ' ms'
  finish(3)
end, timeout * 4)

local function main()
  file = env('E2E_FILE')
  cmd = vim.fn.json_decode(env('E2E_SERVER_CMD'))
  hover_line = tonumber(env('E2E_HOVER_LINE', '-1'))
  hover_char = tonumber(env('E2E_HOVER_CHAR', '0'))
  language_id = env('E2E_LANGUAGE_ID', 'cuda-cpp')
  settings = vim.fn.json_decode(env('E2E_SETTINGS', '{}'))
  vim.cmd('edit ' .. vim.fn.fnameescape(file))
  local bufnr = vim.api.nvim_get_current_buf()
  local initialized = false
  local client_id = vim.lsp.start_client({
    name = 'cuda-bank-lens',
    cmd = cmd,
    root_dir = env('E2E_ROOT', vim.fn.fnamemodify(file, ':p:h')),
    get_language_id = function() return language_id end,
    settings = settings,
    on_init = function(client, init_result)
      -- Neovim 0.7 does not offer workspace/configuration: its settings reach a server as nvim-lspconfig sends them
      client.notify('workspace/didChangeConfiguration', { settings = settings })
      initialized = true
      result.server_info = init_result and init_result.serverInfo or vim.NIL
      result.capabilities = init_result and init_result.capabilities or vim.NIL
    end,
    on_exit = function(code, signal)
      result.server_exit = { code = code, signal = signal }
    end,
    handlers = {
      ['textDocument/publishDiagnostics'] = function(err, params, ctx, config)
        table.insert(result.published, { uri = params.uri, version = params.version, count = #params.diagnostics })
        if params.uri == vim.uri_from_bufnr(bufnr) then result.diagnostics = params.diagnostics end
        return vim.lsp.diagnostic.on_publish_diagnostics(err, params, ctx, config)
      end,
      ['$/progress'] = function(err, params, ctx, config)
        table.insert(result.progress, params.value and params.value.kind or '?')
        local default = vim.lsp.handlers['$/progress']
        if default then return default(err, params, ctx, config) end
      end,
      ['window/logMessage'] = function(_, params)
        table.insert(result.log, params.message)
      end,
      ['window/showMessage'] = function(_, params)
        table.insert(result.log, 'showMessage: ' .. params.message)
      end,
    },
  })
  if not client_id then
    step('start_client', false, 'vim.lsp.start_client returned nil')
    return finish(1)
  end
  vim.lsp.buf_attach_client(bufnr, client_id)

  local ok = vim.wait(timeout, function() return initialized or result.server_exit ~= nil end, 50)
  step('initialize', ok and initialized, initialized and 'answered' or ('no answer' .. (result.server_exit and ' (server exited)' or '')))
  if not initialized then return finish(1) end

  local want = os.getenv('E2E_WAIT_MESSAGE') or ''
  ok = vim.wait(timeout, function()
    if want == '' then return #result.diagnostics > 0 end
    for _, d in ipairs(result.diagnostics) do
      if type(d.message) == 'string' and d.message:find(want, 1, true) then return true end
    end
    return false
  end, 50)
  step('diagnostics', ok, #result.diagnostics .. ' diagnostic(s) for ' .. file)
  result.vim_diagnostics = #vim.diagnostic.get(bufnr)

  if hover_line >= 0 then
    local client = vim.lsp.get_client_by_id(client_id)
    local hover, hover_err, answered = nil, nil, false
    client.request('textDocument/hover', {
      textDocument = { uri = vim.uri_from_bufnr(bufnr) },
      position = { line = hover_line, character = hover_char },
    }, function(err, res)
      hover_err, hover, answered = err, res, true
    end, bufnr)
    ok = vim.wait(timeout, function() return answered end, 50)
    result.hover = hover or vim.NIL
    step('hover', ok and hover ~= nil, hover_err and vim.inspect(hover_err) or (hover == nil and 'no hover' or 'answered'))
  end

  vim.lsp.stop_client(client_id)
  vim.wait(3000, function() return result.server_exit ~= nil end, 50)
  finish(0)
end

local ok, err = pcall(main)
if not ok then
  result.error = tostring(err)
  finish(2)
end
