import type { MailStrings } from './types';

/** Spanish (issue 31): the web app's vocabulary; no tú/usted — infinitives and "se" phrasing. */
export const es: MailStrings = {
  locale: 'es',
  date: '{{weekday}}, {{day}} de {{month}} de {{year}}, {{hour}}:{{minute}} UTC',
  hello: 'Hola:',
  listSeparator: ', ',
  account: {
    activation: {
      subject: 'Activar la cuenta de Community Review',
      intro: 'Gracias por el registro. Para empezar a reseñar, hay que activar la cuenta.',
      action: 'Activar la cuenta',
      after: 'El enlace es válido durante 48 horas. Si no se hizo ningún registro, ignorar este mensaje.',
    },
    email_verification: {
      subject: 'Verificar la dirección de correo electrónico',
      intro: 'Se solicita confirmar que esta es la dirección de correo electrónico correcta.',
      action: 'Verificar la dirección de correo electrónico',
      after: 'El enlace es válido durante 48 horas. Si no se solicitó, ignorar este mensaje.',
    },
    password_reset: {
      subject: 'Restablecer la contraseña de Community Review',
      intro: 'Se solicitó restablecer la contraseña de la cuenta.',
      action: 'Elegir una contraseña nueva',
      after: 'El enlace es válido durante 1 hora. Si no se solicitó, ignorar este mensaje: la contraseña sigue siendo la misma.',
    },
  },
  notifications: {
    theRound: 'la ronda',
    footerText:
      'Este correo se envía por {{because}}. Para dejar de recibir correos sobre {{label}}, abrir {{unsubscribe_url}} — o elegir las notificaciones en el perfil: {{profile_url}}',
    footerHtml: 'Este correo se envía por {{because}}.',
    stopLink: 'Dejar de recibir correos sobre {{label}}',
    chooseLink: 'Elegir las notificaciones',
    kindLabels: {
      review_allocation: 'asignaciones de propuestas',
      review_reminder: 'recordatorios del plazo de reseñas',
      moderation_allocation: 'asignaciones de moderación',
      moderation_reminder: 'recordatorios del plazo de moderación',
      review_outcomes: 'resultados de las reseñas',
      lv2_invitation: 'invitaciones LV2',
    },
    reasons: {
      not_own_opinion: 'no es opinión propia de la persona',
      profanity: 'lenguaje ofensivo',
      similarity: 'similitud',
      rationale_does_not_correspond: 'la justificación no se corresponde',
      false_statement: 'afirmación falsa',
      other: 'otro',
    },
    review_allocation: {
      subject: { one: '{{count}} propuesta para reseñar en {{event}}', other: '{{count}} propuestas para reseñar en {{event}}' },
      body: {
        one: 'Se asignaron las propuestas de {{event}}: {{count}} propuesta para reseñar en {{event}}.{{closes}}',
        other: 'Se asignaron las propuestas de {{event}}: {{count}} propuestas para reseñar en {{event}}.{{closes}}',
      },
      closes: ' El periodo de reseñas se cierra el {{date}}.',
      action: 'Abrir las propuestas',
      because: 'ser revisor de la comunidad en {{event}}',
    },
    moderation_allocation: {
      subject: { one: '{{count}} reseña para moderar en {{event}}', other: '{{count}} reseñas para moderar en {{event}}' },
      body: {
        one: 'Se completó la asignación de moderación de {{event}}: {{count}} reseña para moderar en {{event}}.{{closes}}',
        other: 'Se completó la asignación de moderación de {{event}}: {{count}} reseñas para moderar en {{event}}.{{closes}}',
      },
      closes: ' El periodo de moderación se cierra el {{date}}.',
      action: 'Abrir las reseñas asignadas',
      because: 'ser moderador en {{event}}',
    },
    review_reminder: {
      subject: 'Recordatorio: {{done}} de {{total}} propuestas reseñadas en {{event}}',
      closesAt: 'El periodo de reseñas de {{event}} se cierra el {{date}}.',
      closesSoon: 'El periodo de reseñas de {{event}} se cierra pronto.',
      left: {
        one: '{{done}} de {{total}} propuestas reseñadas: queda {{left}} propuesta por reseñar antes del cierre del periodo.',
        other: '{{done}} de {{total}} propuestas reseñadas: quedan {{left}} propuestas por reseñar antes del cierre del periodo.',
      },
      action: 'Abrir las propuestas',
      because: 'tener propuestas pendientes de reseñar en {{event}}',
    },
    moderation_reminder: {
      subject: 'Recordatorio: {{done}} de {{total}} reseñas moderadas en {{event}}',
      closesAt: 'El periodo de moderación de {{event}} se cierra el {{date}}.',
      closesSoon: 'El periodo de moderación de {{event}} se cierra pronto.',
      left: {
        one: '{{done}} de {{total}} reseñas moderadas: queda {{left}} reseña por moderar antes del cierre del periodo.',
        other: '{{done}} de {{total}} reseñas moderadas: quedan {{left}} reseñas por moderar antes del cierre del periodo.',
      },
      action: 'Abrir las reseñas asignadas',
      because: 'tener reseñas pendientes de moderar en {{event}}',
    },
    review_outcomes: {
      subject: 'Ya están disponibles los resultados de las reseñas de {{event}}',
      intro: 'Ya están disponibles los resultados de las reseñas de {{event}}. Las reseñas propias:',
      submitted: { one: '{{count}} enviada', other: '{{count}} enviadas' },
      valid: { one: '{{count}} válida', other: '{{count}} válidas' },
      excluded: { one: '{{count}} excluida', other: '{{count}} excluidas' },
      byModeration: {
        one: '{{count}} excluida por moderación: la mayoría de sus moderadores la excluyeron{{reasons}}',
        other: '{{count}} excluidas por moderación: la mayoría de sus moderadores las excluyeron{{reasons}}',
      },
      reasons: ' (motivos de los moderadores: {{list}})',
      reasonItem: '{{reason}} {{count}}',
      byThreshold: {
        one: '{{count}} excluida por el umbral de aprobación: muy pocas de las reseñas moderadas propias resultaron válidas, por lo que se excluyen todas las reseñas propias de la ronda',
        other:
          '{{count}} excluidas por el umbral de aprobación: muy pocas de las reseñas moderadas propias resultaron válidas, por lo que se excluyen todas las reseñas propias de la ronda',
      },
      action: 'Ver el historial en el perfil',
      because: 'haber reseñado propuestas en {{event}}',
    },
    lv2_invitation: {
      subject: 'Invitación para moderar en {{event}}',
      invited: 'Un administrador envió una invitación para ser moderador de la comunidad (LV2) en {{event}}.',
      answer:
        'La invitación se responde en el perfil: pulsar Inscribirse junto a ella y, después, indicar el contacto público y la dirección de recompensas, o rechazarla.',
      action: 'Responder a la invitación',
      because: 'haber recibido de un administrador una invitación para moderar en {{event}}',
    },
  },
};
