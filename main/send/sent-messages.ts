// What the Send screen reads back about messages already sent: the numbers and values used last,
// and one message with its later send, its events and its exchanges (those archived too).
import type { MessageDetail, RecentsView } from '../../common/contract';
import { matchTemplate } from '../../common/domain/templates';
import { fail } from '../errors';
import type { ArchiveShelf, ExchangeRepository, IncidentRepository, MessageRepository, TemplateRepository } from '../store';

export interface SentMessagesDeps {
  messages: Pick<MessageRepository, 'latestPerTemplate' | 'recentMobiles' | 'get' | 'laterSend' | 'events'>;
  templates: Pick<TemplateRepository, 'get'>;
  exchanges: Pick<ExchangeRepository, 'forMessage'>;
  incidents: Pick<IncidentRepository, 'incidentOfMessage' | 'get'>;
  /** Where exchanges of old months were archived to (none: no archives read). */
  archives?: Pick<ArchiveShelf, 'forMessage'>;
}

export class SentMessages {
  constructor(private readonly d: SentMessagesDeps) {}

  /** The last numbers called, and for each template the values and number of its last send. */
  recents(): RecentsView {
    const lastSends: RecentsView['lastSends'] = {};
    for (const { templateId, content, mobile, createdAt } of this.d.messages.latestPerTemplate()) {
      const t = this.d.templates.get(templateId);
      const values = t && matchTemplate(content, t.content);
      if (values) lastSends[templateId] = { values, mobile, at: createdAt };
    }
    return { mobiles: this.d.messages.recentMobiles(10), lastSends };
  }

  detail(id: number): MessageDetail {
    const m = this.d.messages.get(id);
    if (!m) throw fail('not-found', { kind: 'message', id });
    const incidentId = this.d.incidents.incidentOfMessage(id);
    const incident = incidentId !== null ? this.d.incidents.get(incidentId) : undefined;
    return {
      message: m,
      later: this.d.messages.laterSend(m) ?? null,
      events: this.d.messages.events(id),
      exchanges: this.d.exchanges.forMessage(id),
      archived: this.d.archives?.forMessage(id) ?? [],
      incident: incident ? { id: incident.id, title: incident.title } : null,
    };
  }
}
