import type { DeclineTable } from '../kit/tables';

/**
 * API Pix (BCB, v2.9.0), "Tratamento de erros": the `type` of a problem is `https://pix.bcb.gov.br/api/v2/error/<Tipo>`;
 * keyed here by <Tipo>. OAuth2 errors of the token endpoint (RFC 6749 section 5.2) are keyed by their `error`.
 * A bank's own failure (5xx) never gets here: the HTTP client throws ProviderUnavailableError.
 */
export const PIX_DECLINES: DeclineTable = {
  RequisicaoInvalida: { declinedCode: 'invalid_data', decision: 'do_not_retry', meaning: 'Requisição inválida.' },
  AcessoNegado: { declinedCode: 'not_permitted', decision: 'do_not_retry', meaning: 'Requisição de participante autenticado que viola alguma regra de autorização (or, on 401, no valid token).' },
  NaoEncontrado: { declinedCode: 'invalid_data', decision: 'do_not_retry', meaning: 'Entidade não encontrada.' },
  PermanentementeRemovido: { declinedCode: 'invalid_data', decision: 'do_not_retry', meaning: 'A entidade existia, mas foi permanentemente removida.' },
  ErroInternoDoServidor: { declinedCode: 'try_again', decision: 'retry_other_provider', meaning: 'Condição inesperada ao processar requisição.' },
  ServicoIndisponivel: { declinedCode: 'try_again', decision: 'retry_other_provider', meaning: 'Serviço não está disponível no momento.' },
  IndisponibilidadePorTempoEsgotado: { declinedCode: 'try_again', decision: 'retry_other_provider', meaning: 'O serviço demorou além do esperado para retornar.' },
  CobNaoEncontrado: { declinedCode: 'invalid_data', decision: 'do_not_retry', meaning: 'Cobrança não encontrada para o txid informado.' },
  CobOperacaoInvalida: { declinedCode: 'invalid_data', decision: 'do_not_retry', meaning: 'A requisição que busca alterar ou criar uma cobrança para pagamento imediato não respeita o schema ou está semanticamente errada.' },
  CobConsultaInvalida: { declinedCode: 'invalid_data', decision: 'do_not_retry', meaning: 'Os parâmetros de consulta de cobranças imediatas não respeitam o schema.' },
  PixNaoEncontrado: { declinedCode: 'invalid_data', decision: 'do_not_retry', meaning: 'Pix não encontrado para o e2eid informado.' },
  PixDevolucaoNaoEncontrada: { declinedCode: 'invalid_data', decision: 'do_not_retry', meaning: 'Devolução não encontrada.' },
  PixDevolucaoInvalida: { declinedCode: 'invalid_amount', decision: 'do_not_retry', meaning: 'A devolução não respeita o schema ou ultrapassa o valor disponível do Pix.' },
  WebhookOperacaoInvalida: { declinedCode: 'invalid_data', decision: 'do_not_retry', meaning: 'A requisição de configuração do webhook não respeita o schema ou está semanticamente errada.' },
  WebhookNaoEncontrado: { declinedCode: 'invalid_data', decision: 'do_not_retry', meaning: 'Webhook não encontrado para a chave informada.' },
  invalid_client: { declinedCode: 'invalid_merchant', decision: 'retry_other_provider', meaning: 'OAuth2: client authentication failed (wrong client_id, client_secret or certificate).' },
  invalid_grant: { declinedCode: 'invalid_merchant', decision: 'retry_other_provider', meaning: 'OAuth2: the grant is invalid.' },
  unauthorized_client: { declinedCode: 'invalid_merchant', decision: 'retry_other_provider', meaning: 'OAuth2: the client may not use this grant type.' },
  invalid_scope: { declinedCode: 'not_permitted', decision: 'do_not_retry', meaning: 'OAuth2: a requested scope is not granted to the application.' },
  unsupported_grant_type: { declinedCode: 'invalid_merchant', decision: 'retry_other_provider', meaning: 'OAuth2: grant type not supported.' },
  invalid_request: { declinedCode: 'invalid_merchant', decision: 'retry_other_provider', meaning: 'OAuth2: the token request is malformed.' },
  http_400: { declinedCode: 'invalid_data', decision: 'do_not_retry', meaning: 'HTTP 400 in a shape the table does not know (a bank\'s own error name): the request was refused as it is.' },
  http_404: { declinedCode: 'invalid_data', decision: 'do_not_retry', meaning: 'HTTP 404 in a shape the table does not know: no such resource.' },
  http_409: { declinedCode: 'invalid_data', decision: 'do_not_retry', meaning: 'HTTP 409: the resource is in a state that refuses the request.' },
  http_401: { declinedCode: 'invalid_merchant', decision: 'retry_other_provider', meaning: 'HTTP 401 without a problem body: the credentials are not accepted.' },
  http_403: { declinedCode: 'not_permitted', decision: 'do_not_retry', meaning: 'HTTP 403 without a problem body: the application may not do this.' },
  http_429: { declinedCode: 'try_again', decision: 'retry_other_provider', meaning: 'HTTP 429: too many requests.' },
};
